// A module that failed to load (an exception while it was imported) as the refusal panel shows
// it: the exception, then the traceback one frame a line, the user's own frames emphasised and
// linked, frames of Python and installed packages dimmed (a run of them folded), and the text
// as Python prints it. Also where the editor marks it: the innermost frame in the user's code.
import type { HookError } from '../engine/api';
import { escapeHtml } from './html-kit';

export interface LoadErrorFrame {
  /** Absolute path (the link target; `<frozen os>` for a frame with no file) and the path shown. */
  file: string;
  shown: string;
  /** 1-based. */
  line: number;
  function: string;
  text?: string;
  /** A frame of the user's code (the workspace, not Python's or an installed package's). */
  user: boolean;
}

export interface LoadErrorView {
  type: string;
  message: string;
  frames: LoadErrorFrame[];
  /** A SyntaxError's place (1-based), with the offending line. */
  syntax?: { file: string; shown: string; line: number; column: number; text: string };
  formatted: string;
}

export interface LoadErrorPlace {
  file: string;
  /** 1-based. */
  line: number;
  column: number;
}

/** `isUser`: a file of the user's code; `shown`: how the panel names a path. */
export function loadErrorView(
  err: HookError,
  isUser: (file: string) => boolean,
  shown: (file: string) => string,
): LoadErrorView {
  const frames = err.traceback.map((f) => ({
    ...f,
    shown: f.file.startsWith('<') ? f.file : shown(f.file),
    user: !f.file.startsWith('<') && isUser(f.file),
  }));
  const syntax = err.syntax?.file ? { ...err.syntax, shown: shown(err.syntax.file) } : undefined;
  return {
    type: err.type,
    message: err.message,
    frames,
    ...(syntax ? { syntax } : {}),
    formatted: err.formatted,
  };
}

/** Where the load failed in the user's code: a SyntaxError's place, else its innermost user frame. */
export function loadErrorPlace(v: LoadErrorView): LoadErrorPlace | undefined {
  if (v.syntax && v.syntax.line > 0)
    return { file: v.syntax.file, line: v.syntax.line, column: Math.max(1, v.syntax.column) };
  const frame = [...v.frames].reverse().find((f) => f.user);
  return frame ? { file: frame.file, line: frame.line, column: 1 } : undefined;
}

export const LOAD_ERROR_CSS = `
.load-error .exc{margin:4px 0 8px}
ol.tb{list-style:none;margin:4px 0;padding:0;font-family:var(--vscode-editor-font-family,monospace)}
ol.tb li{margin:2px 0;padding:2px 6px;border-left:2px solid transparent}
ol.tb li.user{border-left-color:var(--error)}ol.tb li.user a{font-weight:600}
ol.tb li.lib{opacity:.6}ol.tb details{opacity:.7}
ol.tb pre.src{margin:2px 0 0 16px;padding:2px 6px;white-space:pre}
`;

function frameLink(file: string, shown: string, line: number, column?: number): string {
  if (file.startsWith('<')) return `<span class="mono">${escapeHtml(file)}:${line}</span>`;
  return `<a href="#" class="frame mono" data-file="${escapeHtml(file)}" data-line="${line}" title="Open ${escapeHtml(shown)}:${line}">${escapeHtml(shown)}:${line}${column ? `:${column}` : ''}</a>`;
}

function frameItem(f: LoadErrorFrame): string {
  return `<li class="${f.user ? 'user' : 'lib'}">${frameLink(f.file, f.shown, f.line)} <span class="note">in</span> <code>${escapeHtml(f.function)}</code>${f.text ? `<pre class="src">${escapeHtml(f.text)}</pre>` : ''}</li>`;
}

/** Frames in order; two or more consecutive non-user frames fold into one `<details>`. */
function renderFrames(frames: readonly LoadErrorFrame[]): string {
  const out: string[] = [];
  for (let i = 0; i < frames.length;) {
    if (frames[i]!.user) {
      out.push(frameItem(frames[i++]!));
      continue;
    }
    let j = i;
    while (j < frames.length && !frames[j]!.user) j++;
    const run = frames.slice(i, j);
    out.push(
      run.length === 1
        ? frameItem(run[0]!)
        : `<li class="lib"><details><summary>${run.length} frames in Python or installed packages</summary><ol class="tb">${run.map(frameItem).join('')}</ol></details></li>`,
    );
    i = j;
  }
  return out.length
    ? `<ol class="tb" aria-label="Traceback, most recent call last">${out.join('')}</ol>`
    : '';
}

export function renderLoadError(v: LoadErrorView): string {
  const syntax = v.syntax
    ? `<ol class="tb"><li class="user">${frameLink(v.syntax.file, v.syntax.shown, v.syntax.line, v.syntax.column)}${v.syntax.text ? `<pre class="src">${escapeHtml(v.syntax.text)}</pre>` : ''}</li></ol>`
    : '';
  const formatted = v.formatted
    ? `<details><summary>As Python prints it</summary><pre>${escapeHtml(v.formatted)}</pre></details>`
    : '';
  return `<div class="load-error"><p class="exc"><code class="tone-error">${escapeHtml(v.type)}: ${escapeHtml(v.message)}</code></p>${renderFrames(v.frames)}${syntax}${formatted}</div>`;
}
