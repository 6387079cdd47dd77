// The result panel when a run or simulation is refused before any hook ran (errors the engine
// rejects at load time, a bad payload, a broken scenario): what blocks it, each error a link to
// its line, paths relative to the workspace. It replaces the previous result, so nothing stale
// looks like this run's outcome.
import { BASE_CSS, cspMeta, escapeHtml, LINK_SCRIPT, type WebviewSecurity } from './html-kit';
import { LOAD_ERROR_CSS, renderLoadError, type LoadErrorView } from './load-error-html';

export interface RefusalProblem {
  /** Absolute path (the link target) and the path shown (workspace-relative). */
  file: string;
  shown: string;
  /** 1-based. */
  line: number;
  column: number;
  code?: string;
  severity?: string;
  message: string;
}

export interface Refusal {
  /** "guard_orders", "order-pizza.scenario.yaml". */
  subject: string;
  /** One sentence: why it cannot run. */
  reason: string;
  problems: RefusalProblem[];
  /** Other lines (payload or scenario errors) without a place. */
  details: string[];
  /** The module failed to load: its exception and traceback (shown instead of `details`). */
  loadError?: LoadErrorView;
  /** Buttons to show: re-run, open the payload or scenario file, set a model (it needs one). */
  actions: ('rerun' | 'openPayload' | 'openScenario' | 'setModel')[];
}

/** Messages quote names in backticks (as in the editor's hovers): shown as code here. */
function messageHtml(text: string): string {
  return escapeHtml(text).replace(/&#96;([^&]*?)&#96;/g, '<code>$1</code>');
}

const REFUSAL_CSS = `
.refused{padding:10px 14px;border-left:3px solid var(--error);background:var(--card);border-radius:2px;margin:10px 0}
ul.problems{list-style:none;padding:0;margin:6px 0}ul.problems li{margin:4px 0}
ul.problems .code{color:var(--muted);font-size:.85em}
.toolbar{display:flex;gap:8px;margin:10px 0}
`;

const ACTION_WORDS = {
  rerun: '▶ Run again',
  openPayload: 'Open payload',
  openScenario: 'Open scenario',
  setModel: 'Set a model',
} as const;

export function renderRefusalHtml(r: Refusal, sec: WebviewSecurity): string {
  const n = r.problems.length;
  const problems = n
    ? `<ul class="problems" aria-label="What blocks the run">${r.problems
        .map(
          (p) =>
            `<li><span class="tone-error" aria-hidden="true">✕</span> <a href="#" class="frame mono" data-file="${escapeHtml(p.file)}" data-line="${p.line}" title="Open ${escapeHtml(p.shown)}:${p.line}">${escapeHtml(p.shown)}:${p.line}:${p.column}</a> ${messageHtml(p.message)}${p.code ? ` <span class="code">${escapeHtml(p.code)}</span>` : ''}</li>`,
        )
        .join('')}</ul>`
    : '';
  const details = r.loadError
    ? renderLoadError(r.loadError)
    : r.details.length
      ? `<ul class="notes">${r.details.map((d) => `<li>${escapeHtml(d)}</li>`).join('')}</ul>`
      : '';
  const buttons = r.actions
    .map(
      (a, i) =>
        `<button${i ? ' class="secondary"' : ''} data-action="${a}">${escapeHtml(ACTION_WORDS[a])}</button>`,
    )
    .join('');
  return `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
${cspMeta(sec)}
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(r.subject)} — cannot run</title>
<style nonce="${sec.nonce}">${BASE_CSS}${REFUSAL_CSS}${r.loadError ? LOAD_ERROR_CSS : ''}</style>
</head><body>
<header>
<h1><code>${escapeHtml(r.subject)}</code> <span class="badge tone-error"><span aria-hidden="true">✕</span> Cannot run${n ? `: ${n} error${n === 1 ? '' : 's'}` : ''}</span></h1>
</header>
<main>
<div class="refused" role="alert"><p>${escapeHtml(r.reason)}</p>${problems}${details}</div>
<p class="note">${r.loadError ? 'The module raised while it was imported: none of its hooks registered, as the engine fails at model load. Fix the marked line, then run again.' : 'Nothing ran: no hook code was executed. Fix what is listed, then run again.'}</p>
<div class="toolbar">${buttons}</div>
</main>
<script nonce="${sec.nonce}">${LINK_SCRIPT}</script>
</body></html>`;
}
