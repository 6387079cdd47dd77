// Suppression comments, as ruff's `# noqa` and ESLint's `// eslint-disable-line`:
//   x = 1  # hooksmith: ignore[sync-handler, blocking-call]   — diagnostics starting on this line
//   # hooksmith: ignore-file[not-wired]                        — anywhere in the file, that code
// The one place server and CLI apply them (after every rule ran), report a suppression that
// suppressed nothing as `unused-suppression` (information, faded), and build the quick fixes
// that add one. Codes are required: a bare `ignore` would hide problems nobody has read.
import type { AnalysisOptions } from './module';
import type { Fix, HookDiagnostic, Severity, TextEdit } from '../rules/diagnostics';
import type { Range } from '../python/model';
import { unusedSuppression } from '../rules/unused-suppression';
import { messageText } from '../rules/util/diagnostic';

export const UNUSED_SUPPRESSION = 'unused-suppression';

const COMMENT = /#\s*hooksmith:\s*(ignore-file|ignore)\s*\[([^\]\n]*)\]/g;

interface Suppression {
  fileWide: boolean;
  line: number;
  code: string;
  /** The code inside the brackets (what an unused one points at). */
  range: Range;
  /** The whole comment, and the bracket list's codes, for the removal fix. */
  comment: Range;
  siblings: number;
}

/** `#` outside string literals on this line (a light scan: quotes toggle, escapes skip). */
function commentStart(line: string): number {
  let quote: string | undefined;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (quote) {
      if (c === '\\') i++;
      else if (c === quote) quote = undefined;
    } else if (c === '"' || c === "'") quote = c;
    else if (c === '#') return i;
  }
  return -1;
}

export function findSuppressions(text: string): Suppression[] {
  const out: Suppression[] = [];
  const lines = text.split(/\r\n|\r|\n/);
  lines.forEach((line, n) => {
    const hash = commentStart(line);
    if (hash < 0 || !line.includes('hooksmith:', hash)) return;
    for (const m of line.slice(hash).matchAll(COMMENT)) {
      const at = hash + m.index;
      const listStart = at + m[0].indexOf('[') + 1;
      const codes = [...m[2]!.matchAll(/[A-Za-z0-9_-]+/g)];
      for (const c of codes)
        out.push({
          fileWide: m[1] === 'ignore-file',
          line: n,
          code: c[0],
          range: {
            start: { line: n, character: listStart + c.index },
            end: { line: n, character: listStart + c.index + c[0].length },
          },
          comment: { start: { line: n, character: at }, end: { line: n, character: at + m[0].length } },
          siblings: codes.length,
        });
    }
  });
  return out;
}

function removalFix(text: string, s: Suppression): Fix {
  if (s.siblings > 1) {
    // Drop the code and the comma next to it.
    const line = text.split(/\r\n|\r|\n/)[s.line]!;
    let from = s.range.start.character;
    let to = s.range.end.character;
    const after = /^\s*,\s*/.exec(line.slice(to));
    if (after) to += after[0].length;
    else {
      const before = /,\s*$/.exec(line.slice(0, from));
      if (before) from -= before[0].length;
    }
    return {
      title: `Remove ${s.code} from the suppression`,
      edits: [
        {
          range: { start: { line: s.line, character: from }, end: { line: s.line, character: to } },
          newText: '',
        },
      ],
    };
  }
  const line = text.split(/\r\n|\r|\n/)[s.line]!;
  const before = line.slice(0, s.comment.start.character);
  // A comment alone on its line goes with its line; after code, with the spaces before it.
  const range: Range = before.trim()
    ? { start: { line: s.line, character: before.trimEnd().length }, end: s.comment.end }
    : { start: { line: s.line, character: 0 }, end: { line: s.line + 1, character: 0 } };
  return { title: 'Remove the unused suppression comment', edits: [{ range, newText: '' }] };
}

/**
 * The diagnostics left after the file's suppressions, plus one `unused-suppression` per code
 * in a comment that suppressed nothing (unless that rule is turned off in the settings).
 */
export function applySuppressions(
  text: string,
  file: string,
  diagnostics: readonly HookDiagnostic[],
  options?: AnalysisOptions,
): HookDiagnostic[] {
  if (!text.includes('hooksmith:')) return [...diagnostics];
  const found = findSuppressions(text);
  if (!found.length) return [...diagnostics];
  const used = new Set<Suppression>();
  const kept = diagnostics.filter((d) => {
    const by = found.filter((s) => s.code === d.code && (s.fileWide || s.line === d.range.start.line));
    for (const s of by) used.add(s);
    return by.length === 0;
  });
  if (options?.rules?.[UNUSED_SUPPRESSION] === false) return kept;
  const severity: Severity = options?.severity?.[UNUSED_SUPPRESSION] ?? 'information';
  for (const s of found) {
    if (used.has(s)) continue;
    const messageId = s.fileWide ? 'unusedInFile' : 'unusedOnLine';
    kept.push({
      code: UNUSED_SUPPRESSION,
      severity,
      message: messageText(unusedSuppression, messageId, { code: s.code }),
      messageId,
      file,
      range: s.range,
      tags: ['unnecessary'],
      fixes: [{ ...removalFix(text, s), isPreferred: true }],
    });
  }
  return kept;
}

/** Quick fixes that add a suppression of `d`: on its line (merged into one there), or file-wide. */
export function suppressionFixes(text: string, d: HookDiagnostic): Fix[] {
  if (d.code === UNUSED_SUPPRESSION) return [];
  const lines = text.split(/\r\n|\r|\n/);
  const n = d.range.start.line;
  const line = lines[n] ?? '';
  const existing = findSuppressions(line).find((s) => !s.fileWide);
  let lineEdit: TextEdit;
  if (existing) {
    const close = existing.comment.end.character - 1;
    lineEdit = {
      range: { start: { line: n, character: close }, end: { line: n, character: close } },
      newText: `, ${d.code}`,
    };
  } else {
    const end = line.length;
    const pad = line.trim() ? '  ' : '';
    lineEdit = {
      range: { start: { line: n, character: end }, end: { line: n, character: end } },
      newText: `${pad}# hooksmith: ignore[${d.code}]`,
    };
  }
  const fileComment = findSuppressions(text).find((s) => s.fileWide);
  let fileEdit: TextEdit;
  if (fileComment) {
    const at = { line: fileComment.line, character: fileComment.comment.end.character - 1 };
    fileEdit = { range: { start: at, end: at }, newText: `, ${d.code}` };
  } else {
    fileEdit = {
      range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } },
      newText: `# hooksmith: ignore-file[${d.code}]\n`,
    };
  }
  return [
    { title: `Ignore ${d.code} on this line`, edits: [lineEdit] },
    { title: `Ignore ${d.code} in this file`, edits: [fileEdit] },
  ];
}
