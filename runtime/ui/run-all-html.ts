// "Run all hooks in this file": one row per hook — outcome badge, point and lane, duration
// against its budget, what the engine does next — each hook name a link to its definition and
// each crash to its line. Pure: results → HTML.
import type { RunResult } from '../engine/api';
import {
  badge,
  BASE_CSS,
  cspMeta,
  escapeHtml,
  formatMs,
  laneBadge,
  LINK_SCRIPT,
  resultMeta,
  type WebviewSecurity,
} from './html-kit';

export interface RunAllRow {
  result: RunResult;
  /** 1-based line of the handler's definition. */
  line: number;
}

const CSS = `
table.all{border-collapse:collapse;width:100%}
table.all th,table.all td{text-align:left;padding:4px 8px;border-bottom:1px solid var(--border);vertical-align:top}
table.all th{color:var(--muted);font-weight:500;font-size:.85em;white-space:nowrap}
table.all td:nth-child(-n+4){white-space:nowrap}table.all td:last-child{min-width:16em}
`;

export function renderRunAllHtml(title: string, rows: readonly RunAllRow[], sec: WebviewSecurity): string {
  const failed = rows.filter((r) => ['crashed', 'timed-out', 'invalid-return'].includes(r.result.outcome));
  const body = rows
    .map(({ result: r, line }) => {
      const frame = r.error?.traceback.at(-1);
      const crash = frame
        ? `<br><a href="#" class="frame mono" data-file="${escapeHtml(frame.file)}" data-line="${frame.line}">${escapeHtml(r.error!.type)}: ${escapeHtml(r.error!.message)} (line ${frame.line})</a>`
        : '';
      return `<tr><td><a href="#" class="frame mono" data-file="${escapeHtml(r.file)}" data-line="${line}" title="Open ${escapeHtml(r.handler)}">${escapeHtml(r.handler)}</a></td><td>${badge(resultMeta(r.outcome, r.lane, r.payload))}</td><td><span class="mono">${escapeHtml(r.point)}</span> ${laneBadge(r.lane)}</td><td class="mono">${escapeHtml(formatMs(r.durationMs))} / ${escapeHtml(formatMs(r.timeoutMs))}</td><td>${escapeHtml(r.effect)}${crash}</td></tr>`;
    })
    .join('');
  return `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
${cspMeta(sec)}
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style nonce="${sec.nonce}">${BASE_CSS}${CSS}</style>
</head><body>
<h1>${escapeHtml(title)}</h1>
<p class="sub">${rows.length} hook${rows.length === 1 ? '' : 's'} run, each against its point's first saved sample${failed.length ? `; <span class="tone-error">${failed.length} failed</span>` : ''}.</p>
<table class="all"><thead><tr><th scope="col">Hook</th><th scope="col">Outcome</th><th scope="col">Point</th><th scope="col">Time / budget</th><th scope="col">Next</th></tr></thead><tbody>${body}</tbody></table>
<div class="toolbar"><button data-action="rerun">▶ Run all again</button></div>
<script nonce="${sec.nonce}">${LINK_SCRIPT}</script>
</body></html>`;
}
