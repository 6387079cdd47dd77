// Code actions from the fixes the rules attach to their diagnostics. Per diagnostic, in a
// fixed order: the preferred fix, the other suggestions, "Show documentation for <code>".
// Plus `source.fixAll.hooksmith`: the preferred fixes of the file whose edits do not overlap and
// whose result, analysed again, has no diagnostic the file did not have (as ESLint and ruff do:
// Fix All never creates a problem, e.g. a did-you-mean rename that makes a duplicate hook).
import {
  CodeActionKind,
  type CodeAction,
  type CodeActionParams,
  type Diagnostic,
  type TextEdit,
} from 'vscode-languageserver';
import type { HookDiagnostic } from '../../runtime/rules/diagnostics';
import { DIAGNOSTIC_SOURCE, FIX_ALL_KIND, SHOW_DOCS_COMMAND } from '../../runtime/lsp/shared';
import type { Range } from '../../runtime/python/model';
import type { Analyser, ModuleState } from '../analyser';
import { applyEdits } from '../../runtime/scaffold/scaffold-source';
import { suppressionFixes } from '../../runtime/analysis/suppression';

export async function codeActions(analyser: Analyser, p: CodeActionParams): Promise<CodeAction[]> {
  const state = analyser.get(p.textDocument.uri);
  if (!state) return [];
  const uri = p.textDocument.uri;
  const only = p.context.only;
  const wants = (kind: string) => !only || only.some((o) => kind === o || kind.startsWith(o + '.'));
  const out: CodeAction[] = [];
  if (wants(CodeActionKind.QuickFix)) {
    for (const lsp of p.context.diagnostics) {
      if (lsp.source !== DIAGNOSTIC_SOURCE) continue;
      const core = state.diagnostics.find((d) => matches(d, lsp));
      if (core) out.push(...actionsFor(uri, state.text, core, lsp));
    }
    const lightBulbFixAll = fixAllInLightBulb(state, p.context.diagnostics);
    if (lightBulbFixAll) out.push(lightBulbFixAll);
  }
  if (wants(FIX_ALL_KIND)) {
    const all = await fixAll(analyser, state, uri);
    if (all) out.push(all);
  }
  return out;
}

function actionsFor(uri: string, text: string, d: HookDiagnostic, lsp: Diagnostic): CodeAction[] {
  const fixes = [
    ...[...(d.fixes ?? [])].sort((a, b) => Number(!!b.isPreferred) - Number(!!a.isPreferred)),
    ...suppressionFixes(text, d),
  ];
  const out: CodeAction[] = fixes.map((f) => ({
    title: plainTitle(f.title),
    kind: CodeActionKind.QuickFix,
    diagnostics: [lsp],
    isPreferred: !!f.isPreferred,
    edit: { changes: { [uri]: f.edits as TextEdit[] } },
  }));
  out.push({
    title: `Show documentation for ${d.code}`,
    kind: CodeActionKind.QuickFix,
    diagnostics: [lsp],
    command: { title: `Show documentation for ${d.code}`, command: SHOW_DOCS_COMMAND, arguments: [d.code] },
  });
  return out;
}

/**
 * Passes as ESLint makes them: each takes the preferred fixes that do not overlap one another;
 * fixes left out (two rewriting the same import line) get their turn on the next pass's text.
 */
const FIX_ALL_PASSES = 5;

async function fixAll(analyser: Analyser, state: ModuleState, uri: string): Promise<CodeAction | undefined> {
  const before = countByCode(state.diagnostics);
  let text = state.text;
  let diagnostics = state.diagnostics;
  let firstPass: TextEdit[] = [];
  let passes = 0;
  for (; passes < FIX_ALL_PASSES; passes++) {
    const edits = await onePass(analyser, state, text, diagnostics, before);
    if (!edits.length) break;
    if (passes === 0) firstPass = edits;
    text = applyEdits(text, edits);
    diagnostics = await analyser.diagnoseText(state, text);
  }
  if (passes === 0) return undefined;
  const edits: TextEdit[] =
    passes === 1
      ? firstPass
      : [{ range: { start: { line: 0, character: 0 }, end: endOf(state.text) }, newText: text }];
  return {
    title: FIX_ALL_TITLE,
    kind: FIX_ALL_KIND,
    edit: { changes: { [uri]: edits } },
  };
}

const FIX_ALL_TITLE = 'Fix all auto-fixable Hooksmith problems';

/**
 * Fix All in the light bulb (where VS Code lists quick fixes only), as ESLint offers it: when the
 * cursor is on a fixable problem and the file has another. It runs the source action through
 * VS Code, so the passes are computed only when the user picks it.
 */
function fixAllInLightBulb(state: ModuleState, asked: readonly Diagnostic[]): CodeAction | undefined {
  const fixable = state.diagnostics.filter((d) => d.fixes?.some((f) => f.isPreferred && f.edits.length));
  if (fixable.length < 2 || !asked.some((lsp) => fixable.some((d) => matches(d, lsp)))) return undefined;
  return {
    title: FIX_ALL_TITLE,
    kind: CodeActionKind.QuickFix,
    command: {
      title: FIX_ALL_TITLE,
      command: 'editor.action.codeAction',
      arguments: [{ kind: FIX_ALL_KIND, apply: 'first' }],
    },
  };
}

function endOf(text: string): Range['start'] {
  const lines = text.split('\n');
  return { line: lines.length - 1, character: lines[lines.length - 1]!.length };
}

/** One pass of Fix All over `text`: the edits of the fixes that fit together and create no new problem. */
async function onePass(
  analyser: Analyser,
  state: ModuleState,
  text: string,
  diagnostics: readonly HookDiagnostic[],
  before: Map<string, number>,
): Promise<TextEdit[]> {
  const taken: Range[] = [];
  const edits: TextEdit[] = [];
  for (const d of diagnostics) {
    const fix = d.fixes?.find((f) => f.isPreferred);
    if (!fix || fix.edits.length === 0) continue;
    // Two fixes inserting the same import line at the same spot: keep one.
    const fresh = fix.edits.filter(
      (e) => !edits.some((x) => sameRange(x.range, e.range) && x.newText === e.newText),
    );
    if (fresh.some((e) => taken.some((t) => overlaps(t, e.range)))) continue;
    const after = countByCode(await analyser.diagnoseText(state, applyEdits(text, [...edits, ...fresh])));
    if ([...after].some(([code, n]) => n > (before.get(code) ?? 0))) continue;
    for (const e of fresh) {
      edits.push(e);
      taken.push(e.range);
    }
  }
  return edits;
}

/** The light bulb shows titles as plain text: "Add `()`" would show its backticks. */
export function plainTitle(title: string): string {
  return title.replace(/`([^`]*)`/g, '$1');
}

function countByCode(diagnostics: readonly HookDiagnostic[]): Map<string, number> {
  const out = new Map<string, number>();
  for (const d of diagnostics) out.set(d.code, (out.get(d.code) ?? 0) + 1);
  return out;
}

function matches(d: HookDiagnostic, lsp: Diagnostic): boolean {
  return d.code === lsp.code && sameRange(d.range, lsp.range) && d.message === lsp.message;
}

function sameRange(a: Range, b: Range): boolean {
  return (
    a.start.line === b.start.line &&
    a.start.character === b.start.character &&
    a.end.line === b.end.line &&
    a.end.character === b.end.character
  );
}

function before(a: Range['start'], b: Range['start']): boolean {
  return a.line < b.line || (a.line === b.line && a.character < b.character);
}

/** Ranges share text. Inserts at one point do not overlap (LSP applies them in array order). */
function overlaps(a: Range, b: Range): boolean {
  const empty = (r: Range) => sameRange({ start: r.start, end: r.start }, r);
  if (sameRange(a, b)) return !empty(a);
  return before(a.start, b.end) && before(b.start, a.end);
}
