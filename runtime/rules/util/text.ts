// Offsets ↔ LSP positions in a source text (UTF-16 characters, which is what JS strings index).
// Lines are LSP's (and CPython's): \n, \r\n and a lone \r each end one, as in the model.
import type { Position, Range } from '../../python/model';

export function lineStarts(text: string): number[] {
  const starts = [0];
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
export function splitLines(text: string): string[] {
  return text.split(/\r\n|\r|\n/);
}

export function offsetAt(text: string, pos: Position): number {
  const starts = lineStarts(text);
  if (pos.line >= starts.length) return text.length;
  return Math.min(starts[pos.line] + pos.character, text.length);
}

export function positionAt(text: string, offset: number): Position {
  const starts = lineStarts(text);
  let line = 0;
  while (line + 1 < starts.length && starts[line + 1] <= offset) line++;
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
