// The "Run Hook" result panel: outcome, the payload diff (identity restorations highlighted),
// signal, crash traceback with clickable frames, duration against the timeout budget, the fail
// policy and what the end user would have seen, output and notes. Pure: RunResult → HTML.
import type { RunResult } from '../engine/api';
import {
  badge,
  BASE_CSS,
  cspMeta,
  durationBar,
  escapeHtml,
  laneBadge,
  LINK_SCRIPT,
  resultMeta,
  prettyJson,
  renderTraceback,
  shortPath,
  type WebviewSecurity,
} from './html-kit';
import {
  PAYLOAD_BAR_CSS,
  PAYLOAD_BAR_SCRIPT,
  renderPayloadBar,
  renderSampleNotice,
  type PayloadBar,
} from './payload-bar-html';
import { diffPayload, diffSummary, renderDiffTable } from './payload-diff';
import { isFailure, userView } from './user-view';

export interface ResultOptions extends WebviewSecurity {
  /** The payload file the run used (the "Open payload" button posts {type:'openPayload'}). */
  payloadFile?: string;
  /** The payload bar (saved payloads to pick, fields to edit); it replaces "Open payload". */
  payloadBar?: PayloadBar;
}

const POLICY_WORDS: Record<RunResult['policy'], string> = {
  'fail-open': 'Fail-open: a crash or timeout lets the engine carry on with the input',
  'fail-closed': 'Fail-closed: a crash or timeout stops the engine here',
  observe: 'Observer: failures are logged and never affect the turn',
  cayu: 'Cayu phase: the decision returned is applied',
};

/** What the engine carries on with after a failed run, by fail policy (no diff: the hook gave nothing). */
const CARRIES_ON: Record<RunResult['policy'], string> = {
  'fail-open': 'the input payload, unchanged',
  'fail-closed': 'nothing: the engine stops here',
  observe: 'the turn as it was',
  cayu: 'the default decision',
};

const FAILED_WORDS: Partial<Record<RunResult['outcome'], string>> = {
  crashed: 'crashed',
  'timed-out': 'timed out',
  'invalid-return': 'returned something the engine refuses',
};

function renderUserView(result: RunResult): string {
  const v = userView(result);
  if (v.kind === 'text') return `<blockquote class="user-text">${escapeHtml(v.text)}</blockquote>`;
  if (v.kind === 'fallback')
    return `<p class="user-fallback">The fallback response: <code>${escapeHtml(v.response)}</code></p>`;
  return `<p class="user-nothing">${escapeHtml(v.why[0]!.toUpperCase() + v.why.slice(1))}</p>`;
}

const RESULT_CSS = `
.head{display:flex;flex-wrap:wrap;align-items:center;gap:10px}
.meta{display:flex;flex-wrap:wrap;gap:6px 18px;color:var(--muted);margin:6px 0 10px;align-items:center}
.effect{padding:10px 14px;border-left:3px solid var(--info);background:var(--card);border-radius:2px;margin:10px 0}
.effect .label{display:block;font-size:.8em;text-transform:uppercase;letter-spacing:.05em;color:var(--muted)}
.effect .next{margin:6px 0 0;color:var(--muted)}.effect .next strong{color:var(--vscode-foreground)}
.user-text{margin:4px 0;padding:6px 10px;border-radius:4px;background:var(--vscode-textBlockQuote-background,rgba(128,128,128,.1));white-space:pre-wrap;font-size:1.05em}
.user-fallback,.user-nothing{margin:4px 0}.user-nothing{font-style:italic;color:var(--muted)}
.toolbar{display:flex;gap:8px;margin:10px 0}
.cols{display:grid;grid-template-columns:1fr 1fr;gap:12px}
ol.traceback{margin:4px 0;padding-left:20px}.frame-text{margin:2px 0 6px}
.error-line{color:var(--error)}
`;

function section(title: string, body: string): string {
  return body ? `<section><h2>${escapeHtml(title)}</h2>${body}</section>` : '';
}

export function renderRunResultHtml(result: RunResult, opts: ResultOptions): string {
  const styles: string[] = [];
  const meta = resultMeta(result.outcome, result.lane, result.payload);
  const signalText = result.signal ? (result.signal.feedback ?? result.signal.reason) : undefined;
  const signal = result.signal
    ? `<p><code>${escapeHtml(result.signal.type)}</code>${signalText !== undefined ? ` — ${result.signal.type === 'RetryModel' ? 'feedback' : 'reason'}: “${escapeHtml(signalText)}”` : ''}${result.signal.honoured ? '' : ' <span class="tone-warn">(not honoured at this point and lane)</span>'}</p>`
    : '';
  const error = result.error
    ? `<p class="error-line"><code>${escapeHtml(result.error.type)}: ${escapeHtml(result.error.message)}</code></p>${renderTraceback(result.error.traceback)}<details><summary>As Python prints it</summary><pre>${escapeHtml(result.error.formatted)}</pre></details>`
    : '';
  let payload: string;
  if (result.engine === 'cayu') {
    payload = `<div class="cols"><div><h3 class="note">Context</h3><pre>${escapeHtml(prettyJson(result.inputPayload))}</pre></div><div><h3 class="note">Decision</h3><pre>${escapeHtml(prettyJson(result.payload))}</pre></div></div>`;
  } else if (result.lane === 'modify' && isFailure(result)) {
    // A crash, timeout or refused return has no result to diff: say what the engine uses instead.
    payload = `<p>No diff: the hook ${escapeHtml(FAILED_WORDS[result.outcome] ?? result.outcome)}. The engine carries on with <strong>${escapeHtml(CARRIES_ON[result.policy])}</strong>.</p><details><summary>Input</summary><pre>${escapeHtml(prettyJson(result.inputPayload))}</pre></details>`;
  } else if ((result.payload === null || result.payload === undefined) && (result.error || result.signal)) {
    payload = `<p class="note">The hook returned nothing the engine uses.</p><details><summary>Input</summary><pre>${escapeHtml(prettyJson(result.inputPayload))}</pre></details>`;
  } else if (result.lane === 'observe') {
    payload = `<p class="note">Observers get an independent copy; what they return is ignored.</p><details><summary>Input</summary><pre>${escapeHtml(prettyJson(result.inputPayload))}</pre></details>`;
  } else {
    const d = diffPayload(result.inputPayload, result.payload, result.notes);
    payload = `<p>${escapeHtml(diffSummary(d))} <span class="note">— what the engine carries on with, against the input</span></p>${renderDiffTable(d)}<details><summary>Input / result as JSON</summary><div class="cols"><div><pre>${escapeHtml(prettyJson(result.inputPayload))}</pre></div><div><pre>${escapeHtml(prettyJson(result.payload))}</pre></div></div></details>`;
  }
  const bar = durationBar(result.durationMs, result.timeoutMs, 'run-bar', styles);
  const notes = result.notes.length
    ? `<ul class="notes">${result.notes.map((n) => `<li>${escapeHtml(n)}</li>`).join('')}</ul>`
    : '';
  const actions = result.actions?.length ? `<pre>${escapeHtml(prettyJson(result.actions))}</pre>` : '';
  return `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
${cspMeta(opts)}
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(result.handler)} — run</title>
<style nonce="${opts.nonce}">${BASE_CSS}${RESULT_CSS}${opts.payloadBar ? PAYLOAD_BAR_CSS : ''}${styles.join('\n')}
</style>
</head><body>
<header>
<div class="head"><h1><code>${escapeHtml(result.handler)}</code></h1>${badge(meta)}</div>
<div class="meta"><span class="mono">${escapeHtml(result.point)}</span>${laneBadge(result.lane)}<span title="${escapeHtml(result.file)}">${escapeHtml(shortPath(result.file))}</span><span>${bar}</span></div>
${result.playedBy ? `<p class="sub played-by">Played by <b>${escapeHtml(result.playedBy)}</b></p>` : ''}
${opts.payloadBar ? renderSampleNotice(opts.payloadBar) : ''}
<div class="effect" role="status"><span class="label">What the end user would have seen</span>${renderUserView(result)}<p class="next"><strong>Next:</strong> ${escapeHtml(result.effect)}</p></div>
<p class="note">${escapeHtml(POLICY_WORDS[result.policy] ?? result.policy)}</p>
<div class="toolbar"><button data-action="rerun" title="Run the hook again with the same payload">▶ Re-run</button>${opts.payloadFile && !opts.payloadBar ? `<button class="secondary" data-action="openPayload" title="${escapeHtml(opts.payloadFile)}">Open payload</button>` : ''}</div>
${opts.payloadBar ? renderPayloadBar(opts.payloadBar) : ''}
</header>
<main>
${section(result.signal ? `Signal: ${result.signal.type}` : '', signal)}
${section('Crash', error)}
${section(result.engine === 'cayu' ? 'Decision' : 'Payload', payload)}
${section('Notes', notes)}
${section('Context actions', actions)}
${section('Captured output', result.output ? `<pre>${escapeHtml(result.output)}</pre>` : '')}
${opts.payloadFile && !opts.payloadBar ? `<p class="note">Payload file <code>${escapeHtml(opts.payloadFile)}</code></p>` : ''}
</main>
<script nonce="${opts.nonce}">${LINK_SCRIPT}${opts.payloadBar ? PAYLOAD_BAR_SCRIPT : ''}</script>
</body></html>`;
}
