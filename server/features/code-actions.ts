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

async function fixAll(analyser: Analyser, state: ModuleState, uri: string): Promise<CodeAction | undefined> {
  const before = countByCode(state.diagnostics);
  const taken: Range[] = [];
  const edits: TextEdit[] = [];
  for (const d of state.diagnostics) {
    const fix = d.fixes?.find((f) => f.isPreferred);
    if (!fix || fix.edits.length === 0) continue;
    // Two fixes inserting the same import line at the same spot: keep one.
    const fresh = fix.edits.filter(
      (e) => !edits.some((x) => sameRange(x.range, e.range) && x.newText === e.newText),
    );
    if (fresh.some((e) => taken.some((t) => overlaps(t, e.range)))) continue;
    const after = countByCode(
      await analyser.diagnoseText(state, applyEdits(state.text, [...edits, ...fresh])),
    );
    if ([...after].some(([code, n]) => n > (before.get(code) ?? 0))) continue;
    for (const e of fresh) {
      edits.push(e);
      taken.push(e.range);
    }
  }
  if (edits.length === 0) return undefined;
  return {
    title: 'Fix all auto-fixable Hooksmith problems',
    kind: FIX_ALL_KIND,
    edit: { changes: { [uri]: edits } },
  };
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
