// Offsets ↔ LSP positions in a source text (UTF-16 characters, which is what JS strings index).
import type { Position, Range } from '../../python/model';

export function lineStarts(text: string): number[] {
  const starts = [0];
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) starts.push(i + 1);
  return starts;
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
  return text.split('\n')[line]?.replace(/\r$/, '') ?? '';
}

export function indentOf(line: string): string {
  return /^[ \t]*/.exec(line)?.[0] ?? '';
}

export function point(line: number, character: number): Range {
  return { start: { line, character }, end: { line, character } };
}
