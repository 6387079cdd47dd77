// Offsets ↔ LSP positions in a source text (UTF-16 characters, which is what JS strings index).
// Lines are LSP's (and CPython's): \n, \r\n and a lone \r each end one, as in the model.
import type { Position, Range } from './model';

// A rule building fixes asks about the same text again and again (several times per
// diagnostic): the last text's line starts and lines are kept, so a module with hundreds of
// diagnostics is not split hundreds of times. Shared arrays: callers must not modify them.
let startsOf: { text: string; starts: readonly number[] } | undefined;
let linesOf: { text: string; lines: readonly string[] } | undefined;

/** Offsets where each line starts (the first is 0). */
export function lineStarts(text: string): readonly number[] {
  if (startsOf?.text !== text) startsOf = { text, starts: computeLineStarts(text) };
  return startsOf.starts;
}

function computeLineStarts(text: string): number[] {
  const starts = [0];
  // Without a \r, indexOf finds the breaks several times faster than a loop over every character.
  if (!text.includes('\r')) {
    for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
    return starts;
  }
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 10) starts.push(i + 1);
    else if (c === 13) {
      if (text.charCodeAt(i + 1) === 10) i++;
      starts.push(i + 1);
    }
  }
  return starts;
}

/** The text's lines without their line breaks, as LSP counts them. */
export function splitLines(text: string): readonly string[] {
  if (linesOf?.text !== text) linesOf = { text, lines: text.split(/\r\n|\r|\n/) };
  return linesOf.lines;
}

export function offsetAt(text: string, pos: Position): number {
  const starts = lineStarts(text);
  if (pos.line >= starts.length) return text.length;
  return Math.min(starts[pos.line] + pos.character, text.length);
}

export function positionAt(text: string, offset: number): Position {
  const starts = lineStarts(text);
  // The last line starting at or before offset (binary search).
  let line = 0;
  let hi = starts.length - 1;
  while (line < hi) {
    const mid = (line + hi + 1) >> 1;
    if (starts[mid] <= offset) line = mid;
    else hi = mid - 1;
  }
  return { line, character: offset - starts[line] };
}

export function sliceRange(text: string, range: Range): string {
  return text.slice(offsetAt(text, range.start), offsetAt(text, range.end));
}

export function lineText(text: string, line: number): string {
  return splitLines(text)[line] ?? '';
}

export function indentOf(line: string): string {
  return /^[ \t]*/.exec(line)?.[0] ?? '';
}

export function point(line: number, character: number): Range {
  return { start: { line, character }, end: { line, character } };
}
