// VS Code re-indents every line of an inserted snippet to the whitespace before the insertion
// point on its line. A plan that appends after an indented last line (the body of the function a
// snippet just wrote) would nest the new hook inside that function (#31 item 1): the line break
// goes in as a plain edit, and the snippet starts at column 0 of its own line.
import type { Position } from '../python/model';

export interface LineStartInsertion {
  /** Insert a plain '\n' here first (the end of the last line), when the snippet began with it. */
  lineBreak?: Position;
  /** Column 0 of a line, after the line break. */
  position: Position;
  snippet: string;
}

export function snippetAtLineStart(plan: { position: Position; snippet: string }): LineStartInsertion {
  const { position, snippet } = plan;
  if (position.character === 0 || !snippet.startsWith('\n')) return { position, snippet };
  return {
    lineBreak: position,
    position: { line: position.line + 1, character: 0 },
    snippet: snippet.slice(1),
  };
}
