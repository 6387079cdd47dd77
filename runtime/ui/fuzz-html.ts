// The "Fuzz hook" result panel: the verdict, the outcome counts of every generated case, latency
// against the budget, the shrunk smallest failing payload (with "Save as payload case") and the
// first failing cases with their payloads. Pure: FuzzReport → HTML.
import { OUTCOMES } from '../engine/api';
import { fieldNote, type FuzzFailure, type FuzzReport } from '../testing/fuzz-run';
import {
  badge,
  BASE_CSS,
  cspMeta,
  escapeHtml,
  LINK_SCRIPT,
  outcomeMeta,
  prettyJson,
  type WebviewSecurity,
} from './html-kit';

export interface FuzzPanelOptions extends WebviewSecurity {
  /** The saved case's path once "Save as payload case" wrote it. */
  savedCase?: string;
}

const FUZZ_CSS = `
.head{display:flex;flex-wrap:wrap;align-items:center;gap:10px}
.meta{display:flex;flex-wrap:wrap;gap:6px 18px;color:var(--muted);margin:6px 0 10px}
table.counts{border-collapse:collapse;margin:6px 0}table.counts td,table.counts th{padding:2px 10px;text-align:left;border-bottom:1px solid var(--border)}
table.counts td.n{text-align:right;font-variant-numeric:tabular-nums}
.toolbar{display:flex;gap:8px;margin:10px 0}
ol.failing{padding-left:20px}ol.failing li{margin:4px 0}
`;

function failureLine(f: FuzzFailure): string {
  const read = fieldNote(f);
  return `${badge(outcomeMeta(f.outcome))}${f.overBudget ? ' <span class="tone-warn">over budget</span>' : ''}${f.error ? ` <code>${escapeHtml(f.error)}</code>` : ''}${read ? ` — ${escapeHtml(read)}` : ''}`;
}

export function renderFuzzHtml(r: FuzzReport, opts: FuzzPanelOptions): string {
  const failed = r.failures > 0;
  const verdict = failed
    ? { label: `${r.failures} of ${r.runs} misbehaved`, symbol: '✕', tone: 'error' as const }
    : { label: `all ${r.runs} handled`, symbol: '✓', tone: 'ok' as const };
  const rows = OUTCOMES.filter((o) => r.counts[o] > 0 || o === 'returned' || o === 'crashed')
    .map((o) => `<tr><td>${badge(outcomeMeta(o))}</td><td class="n">${r.counts[o]}</td></tr>`)
    .join('');
  const overBudget = `<tr><td>over budget</td><td class="n">${r.overBudget}</td></tr>`;
  const smallest = r.smallest
    ? `<section><h2>Smallest failing payload (shrunk)</h2><p>${failureLine(r.smallest)}</p><pre>${escapeHtml(prettyJson(r.smallest.payload))}</pre>${
        opts.savedCase
          ? `<p class="note">Saved as the payload case <code>${escapeHtml(opts.savedCase)}</code> (expect <code>outcome: returned</code>): the Testing view runs it.</p>`
          : `<div class="toolbar"><button data-action="saveFuzzCase" title="Write it to .hooksmith/payloads/ with expect {outcome: returned}">Save as payload case</button></div>`
      }</section>`
    : failed
      ? `<p class="note">Failures were found, but none reproduced while shrinking.</p>`
      : '';
  const failing = r.failing?.length
    ? `<section><h2>Failing cases (${r.failing.length === r.failures ? 'all' : `first ${r.failing.length} of ${r.failures}`})</h2><ol class="failing">${r.failing
        .map(
          (f) =>
            `<li><details><summary>case ${f.index} ${failureLine(f)}</summary><pre>${escapeHtml(prettyJson(f.payload))}</pre></details></li>`,
        )
        .join('')}</ol></section>`
    : '';
  return `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
${cspMeta(opts)}
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(r.target)} — fuzz</title>
<style nonce="${opts.nonce}">${BASE_CSS}${FUZZ_CSS}</style>
</head><body>
<header>
<div class="head"><h1><code>${escapeHtml(r.target)}</code></h1>${badge(verdict)}</div>
<div class="meta"><span class="mono">${escapeHtml(r.point)}</span><span>${r.runs} generated payloads, seed ${r.seed}</span><span>p50 ${r.p50Ms} ms · p99 ${r.p99Ms} ms of ${r.budgetMs} ms</span><span>${r.perSecond} payloads/s</span></div>
<div class="toolbar"><button data-action="rerun" title="Fuzz again with a new seed">▶ Fuzz again</button></div>
</header>
<main>
<section><h2>Cases by outcome</h2><table class="counts" aria-label="Cases by outcome">${rows}${overBudget}</table></section>
${smallest}
${failing}
</main>
<script nonce="${opts.nonce}">${LINK_SCRIPT}</script>
</body></html>`;
}
