// Small pieces shared by the run-result and timeline webviews: escaping, the CSP header,
// outcome badges (colour + symbol + words, never colour alone), duration bars and theme CSS.
// No `vscode` import: the HTML is a pure function of the data, unit-tested.
import type { Outcome } from '../engine/api';
import { stringifyJson } from '../json/lossless-json';

/** Escapes text for HTML element content and double-quoted attributes. */
export function escapeHtml(text: unknown): string {
  return String(text).replace(/[&<>"'`]/g, (c) => `&#${c.charCodeAt(0)};`);
}

export interface WebviewSecurity {
  /** A fresh random nonce per render; the only scripts and styles allowed carry it. */
  nonce: string;
  /** `webview.cspSource` (images only; no external resources are loaded). */
  cspSource: string;
}

/** Strict CSP: nothing by default; styles and scripts only with the nonce. */
export function cspMeta(sec: WebviewSecurity): string {
  const policy = [
    `default-src 'none'`,
    `img-src ${sec.cspSource} data:`,
    `style-src 'nonce-${sec.nonce}'`,
    `script-src 'nonce-${sec.nonce}'`,
  ].join('; ');
  return `<meta http-equiv="Content-Security-Policy" content="${escapeHtml(policy)}">`;
}

/** A random nonce (32 alphanumerics) from `crypto.getRandomValues`. */
export function makeNonce(): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
  const bytes = new Uint8Array(32);
  globalThis.crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => alphabet[b % alphabet.length]).join('');
}

export type Tone = 'ok' | 'warn' | 'error' | 'info' | 'muted';

export interface OutcomeMeta {
  label: string;
  symbol: string;
  tone: Tone;
}

const OUTCOMES: Record<Outcome, OutcomeMeta> = {
  returned: { label: 'Returned', symbol: '✓', tone: 'ok' },
  'retry-model': { label: 'RetryModel', symbol: '↻', tone: 'info' },
  'hook-rejection': { label: 'HookRejection', symbol: '⊘', tone: 'warn' },
  crashed: { label: 'Crashed', symbol: '✕', tone: 'error' },
  'timed-out': { label: 'Timed out', symbol: '⏱', tone: 'error' },
  'invalid-return': { label: 'Invalid return', symbol: '!', tone: 'error' },
  'ignored-signal': { label: 'Signal ignored', symbol: '≠', tone: 'warn' },
};

export function outcomeMeta(outcome: Outcome | undefined): OutcomeMeta {
  return outcome
    ? (OUTCOMES[outcome] ?? { label: String(outcome), symbol: '?', tone: 'muted' })
    : { label: 'No hook', symbol: '·', tone: 'muted' };
}

/**
 * A Cayu phase that returned a decision is labelled by what the decision does (a block is no
 * plain "Returned"); `proceed` / `pass_through` and every failure keep the outcome's label.
 */
const CAYU_DECISIONS: Record<string, OutcomeMeta> = {
  block: { label: 'Blocked', symbol: '⊘', tone: 'warn' },
  short_circuit: { label: 'Short-circuited', symbol: '↪', tone: 'info' },
  modify: { label: 'Modified', symbol: 'Δ', tone: 'info' },
  proceed_modified: { label: 'Modified', symbol: 'Δ', tone: 'info' },
};

/** The badge of a run or timeline step: a Cayu decision's action, else the outcome. */
export function resultMeta(outcome: Outcome | undefined, lane: string, payload: unknown): OutcomeMeta {
  if (outcome === 'returned' && lane === 'phase' && typeof payload === 'object' && payload !== null) {
    const action = (payload as { action?: unknown }).action;
    if (typeof action === 'string' && Object.hasOwn(CAYU_DECISIONS, action)) return CAYU_DECISIONS[action]!;
  }
  return outcomeMeta(outcome);
}

/**
 * Symbols the webview fonts may lack (⏱ needs an emoji font) are drawn as inline SVG in the
 * codicon style (16×16, currentColor), so they never render as an empty box.
 */
const SVG_SYMBOLS: Record<string, string> = {
  '⏱': `<svg class="icon" viewBox="0 0 16 16" width="12" height="12" fill="none" stroke="currentColor" stroke-width="1.4"><circle cx="8" cy="9" r="5.5"/><path d="M8 6v3.2l2 1.3M6.5 1.8h3"/></svg>`,
};

export function symbolHtml(symbol: string): string {
  return SVG_SYMBOLS[symbol] ?? escapeHtml(symbol);
}

export function badge(meta: OutcomeMeta, extraClass = ''): string {
  return `<span class="badge tone-${meta.tone}${extraClass ? ` ${extraClass}` : ''}"><span aria-hidden="true">${symbolHtml(meta.symbol)}</span> ${escapeHtml(meta.label)}</span>`;
}

export function laneBadge(lane: string): string {
  return `<span class="lane lane-${escapeHtml(lane)}">${escapeHtml(lane)}</span>`;
}

export function formatMs(ms: number | undefined): string {
  if (ms === undefined || !Number.isFinite(ms)) return '–';
  // The engine rounds to 0.1 ms: 0 means "under a tenth", not "free".
  if (ms < 0.1) return '<0.1 ms';
  if (ms >= 1000) return `${(ms / 1000).toFixed(ms >= 10_000 ? 0 : 1)} s`;
  return `${ms < 10 ? ms.toFixed(1).replace(/\.0$/, '') : Math.round(ms)} ms`;
}

/** Share of the timeout budget used, as a 0–100 percentage (clamped; 0 without a budget). */
export function budgetPercent(durationMs: number | undefined, timeoutMs: number | undefined): number {
  if (!durationMs || !timeoutMs || timeoutMs <= 0 || !Number.isFinite(durationMs)) return 0;
  return Math.max(0, Math.min(100, (durationMs / timeoutMs) * 100));
}

/** A meter (role="meter") with the duration against the timeout; the fill width is set by a nonce'd style rule. */
export function durationBar(
  durationMs: number | undefined,
  timeoutMs: number | undefined,
  id: string,
  styles: string[],
): string {
  const pct = budgetPercent(durationMs, timeoutMs);
  const tone = pct >= 100 ? 'error' : pct >= 60 ? 'warn' : 'ok';
  // The CSP forbids inline style attributes, so widths go into the nonce'd <style>.
  styles.push(`#${id}>.fill{width:${Math.max(pct, durationMs ? 1 : 0).toFixed(1)}%}`);
  const text = `${formatMs(durationMs)} of ${formatMs(timeoutMs)}`;
  return `<span class="bar tone-${tone}" id="${id}" role="meter" aria-valuemin="0" aria-valuemax="${timeoutMs ?? 0}" aria-valuenow="${durationMs ?? 0}" aria-label="${escapeHtml(`duration ${text}`)}"><span class="fill"></span></span><span class="bar-text">${escapeHtml(text)}</span>`;
}

/** JSON for display: pretty, bounded (huge payloads would freeze the webview). */
export function prettyJson(value: unknown, max = 20_000): string {
  let text: string;
  try {
    text = value === undefined ? 'undefined' : (stringifyJson(value, 2) ?? String(value));
  } catch {
    text = String(value);
  }
  return text.length > max ? `${text.slice(0, max)}\n… (${text.length - max} more characters)` : text;
}

/** Theme-aware base CSS: only `--vscode-*` variables, with fallbacks for the standalone HTML. */
export const BASE_CSS = `
:root{--ok:var(--vscode-testing-iconPassed,#3fb950);--warn:var(--vscode-editorWarning-foreground,#d29922);--error:var(--vscode-errorForeground,#f85149);--info:var(--vscode-editorInfo-foreground,#58a6ff);--muted:var(--vscode-descriptionForeground,#8b949e);--border:var(--vscode-panel-border,rgba(128,128,128,.35));--card:var(--vscode-editorWidget-background,rgba(128,128,128,.06))}
body{font-family:var(--vscode-font-family,system-ui,sans-serif);font-size:var(--vscode-font-size,13px);color:var(--vscode-foreground,#ccc);background:var(--vscode-editor-background,#1e1e1e);margin:0;padding:16px 24px;line-height:1.45}
h1{font-size:1.35em;font-weight:600;margin:0 0 4px}h1 code{font-size:inherit;background:none;padding:0}h2{font-size:1.05em;font-weight:600;margin:20px 0 8px;color:var(--vscode-foreground)}
.sub{color:var(--muted);margin:0 0 12px}
code,pre,.mono{font-family:var(--vscode-editor-font-family,ui-monospace,monospace);font-size:var(--vscode-editor-font-size,12px)}
pre{background:var(--vscode-textCodeBlock-background,rgba(128,128,128,.12));padding:8px 10px;border-radius:4px;overflow:auto;max-height:360px;margin:4px 0;white-space:pre-wrap;word-break:break-word}
.badge{display:inline-flex;align-items:center;gap:4px;padding:1px 8px;border-radius:10px;font-size:.85em;font-weight:600;border:1px solid currentColor;white-space:nowrap}
.tone-ok{color:var(--ok)}.tone-warn{color:var(--warn)}.tone-error{color:var(--error)}.tone-info{color:var(--info)}.tone-muted{color:var(--muted)}
.lane{display:inline-block;padding:0 6px;border-radius:3px;font-size:.8em;text-transform:uppercase;letter-spacing:.04em;background:var(--vscode-badge-background,#4d4d4d);color:var(--vscode-badge-foreground,#fff)}
.lane-observe{opacity:.8}.lane-phase{background:var(--vscode-activityBarBadge-background,#0078d4);color:var(--vscode-activityBarBadge-foreground,#fff)}
.bar{display:inline-block;width:90px;height:6px;border-radius:3px;background:var(--vscode-progressBar-background,#0e70c0);background:rgba(128,128,128,.25);vertical-align:middle;overflow:hidden;margin-right:6px}
.bar>.fill{display:block;height:100%;background:currentColor}
.bar-text{color:var(--muted);font-size:.85em;white-space:nowrap}
button{font:inherit;color:var(--vscode-button-foreground,#fff);background:var(--vscode-button-background,#0e639c);border:none;padding:4px 12px;border-radius:2px;cursor:pointer;white-space:nowrap}
button:hover{background:var(--vscode-button-hoverBackground,#1177bb)}
button.secondary{color:var(--vscode-button-secondaryForeground,#fff);background:var(--vscode-button-secondaryBackground,#3a3d41)}
:focus-visible{outline:1px solid var(--vscode-focusBorder,#007fd4);outline-offset:1px}
a{color:var(--vscode-textLink-foreground,#3794ff)}a:hover{color:var(--vscode-textLink-activeForeground,#3794ff)}
table.diff{border-collapse:collapse;width:100%;margin:4px 0;table-layout:fixed}
table.diff th:nth-child(1){width:24%}table.diff th:nth-child(2),table.diff th:nth-child(3){width:auto}table.diff th:nth-child(4){width:8.5em;white-space:nowrap}
table.diff td code{white-space:pre-wrap}
svg.icon{vertical-align:-1px}
table.diff th,table.diff td{text-align:left;padding:2px 8px;border-bottom:1px solid var(--border);vertical-align:top;word-break:break-word}
table.diff th{color:var(--muted);font-weight:500;font-size:.85em}
tr.d-changed td.k{border-left:3px solid var(--warn)}tr.d-added td.k{border-left:3px solid var(--ok)}tr.d-removed td.k{border-left:3px solid var(--error)}tr.d-restored td.k{border-left:3px solid var(--info)}
.kind{font-size:.8em;color:var(--muted)}
.sr-only{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
.note{color:var(--muted)}ul.notes{margin:4px 0;padding-left:18px}
`;

/** Traceback frames as links; the webview script posts {type:'open', file, line} on activation. */
export function renderTraceback(
  frames: readonly { file: string; line: number; function: string; text?: string }[],
): string {
  if (!frames.length) return '';
  const items = frames
    .map(
      (f) =>
        `<li><a href="#" class="frame mono" data-file="${escapeHtml(f.file)}" data-line="${escapeHtml(f.line)}" title="Open ${escapeHtml(f.file)}:${escapeHtml(f.line)}">${escapeHtml(shortPath(f.file))}:${escapeHtml(f.line)}</a> <span class="note">in</span> <code>${escapeHtml(f.function)}</code>${f.text ? `<pre class="frame-text">${escapeHtml(f.text)}</pre>` : ''}</li>`,
    )
    .join('');
  return `<ol class="traceback" aria-label="Traceback, most recent call last">${items}</ol>`;
}

/** The last three path segments: enough to recognise a file without the machine's prefix. */
export function shortPath(file: string): string {
  const parts = file.split(/[\\/]/);
  return parts.length > 3 ? `…/${parts.slice(-3).join('/')}` : file;
}

/** Script part shared by both webviews: frame links post {type:'open'}; buttons with data-action post {type}. */
export const LINK_SCRIPT = `
const vscodeApi = typeof acquireVsCodeApi === 'function' ? acquireVsCodeApi() : undefined;
document.addEventListener('click', (e) => {
  const a = e.target instanceof Element ? e.target.closest('a.frame') : null;
  if (a) { e.preventDefault(); vscodeApi && vscodeApi.postMessage({ type: 'open', file: a.dataset.file, line: Number(a.dataset.line) }); return; }
  const b = e.target instanceof Element ? e.target.closest('button[data-action]') : null;
  if (b && vscodeApi) vscodeApi.postMessage({ type: b.dataset.action });
});
`;
