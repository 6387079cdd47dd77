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
  type WorkspaceEdit,
} from 'vscode-languageserver';
import type { HookDiagnostic } from '../../runtime/rules/diagnostics';
import {
  DIAGNOSTIC_SOURCE,
  FIX_ALL_KIND,
  OPEN_RULE_PAGE_COMMAND,
  SHOW_DOCS_COMMAND,
} from '../../runtime/lsp/shared';
import type { Range } from '../../runtime/python/model';
import type { Analyser, ModuleState } from '../analyser';
import type { ClientProfile } from '../client-profile';
import { applyEdits } from '../../runtime/scaffold/scaffold-source';
import { suppressionFixes } from '../../runtime/analysis/suppression';

/** What the actions are computed from: one version of the module, its text and its diagnostics. */
export interface Snapshot {
  uri: string;
  /** The buffer version (null: a file on disk, not open). */
  version: number | null;
  text: string;
  diagnostics: readonly HookDiagnostic[];
}

export function snapshotOf(state: ModuleState, uri: string): Snapshot {
  return { uri, version: state.buffer?.version ?? null, text: state.text, diagnostics: state.diagnostics };
}

/**
 * The actions for `snap`, a snapshot whose diagnostics are of its own text (the server waits for
 * that version's analysis first). Edits carry the version where the client takes it, so a client
 * whose document moved on refuses them instead of applying them to other text.
 */
export async function codeActions(
  analyser: Analyser,
  state: ModuleState,
  snap: Snapshot,
  p: CodeActionParams,
  client: ClientProfile,
): Promise<CodeAction[]> {
  const only = p.context.only;
  const wants = (kind: string) => !only || only.some((o) => kind === o || kind.startsWith(o + '.'));
  const out: CodeAction[] = [];
  if (wants(CodeActionKind.QuickFix)) {
    const seen = new Set<HookDiagnostic>();
    for (const lsp of p.context.diagnostics) {
      if (lsp.source !== DIAGNOSTIC_SOURCE) continue;
      const core = matching(snap.diagnostics, lsp);
      if (core && !seen.has(core)) {
        seen.add(core);
        out.push(...actionsFor(snap, core, lsp, client));
      }
    }
    // VS Code's light bulb lists quick fixes only; other clients list the source action itself.
    const lightBulbFixAll = client.vscode ? fixAllInLightBulb(snap, p.context.diagnostics) : undefined;
    if (lightBulbFixAll) out.push(lightBulbFixAll);
  }
  if (wants(FIX_ALL_KIND)) {
    const all = await fixAll(analyser, state, snap, client);
    if (all) out.push(all);
  }
  return out;
}

/** A workspace edit of `snap`'s document: versioned `documentChanges` where the client takes them. */
export function editOf(
  snap: Pick<Snapshot, 'uri' | 'version'>,
  edits: TextEdit[],
  client: ClientProfile,
): WorkspaceEdit {
  if (!client.documentChanges) return { changes: { [snap.uri]: edits } };
  return { documentChanges: [{ textDocument: { uri: snap.uri, version: snap.version }, edits }] };
}

function actionsFor(snap: Snapshot, d: HookDiagnostic, lsp: Diagnostic, client: ClientProfile): CodeAction[] {
  const fixes = [
    ...[...(d.fixes ?? [])].sort((a, b) => Number(!!b.isPreferred) - Number(!!a.isPreferred)),
    ...suppressionFixes(snap.text, d),
  ];
  const out: CodeAction[] = fixes.map((f) => ({
    title: plainTitle(f.title),
    kind: CodeActionKind.QuickFix,
    diagnostics: [lsp],
    isPreferred: !!f.isPreferred,
    edit: editOf(snap, f.edits as TextEdit[], client),
  }));
  // VS Code shows the page shipped in the extension; any other client asks the server to open the web page.
  const command = client.vscode ? SHOW_DOCS_COMMAND : OPEN_RULE_PAGE_COMMAND;
  out.push({
    title: `Show documentation for ${d.code}`,
    kind: CodeActionKind.QuickFix,
    diagnostics: [lsp],
    command: { title: `Show documentation for ${d.code}`, command, arguments: [d.code] },
  });
  return out;
}

/**
 * Passes as ESLint makes them: each takes the preferred fixes that do not overlap one another;
 * fixes left out (two rewriting the same import line) get their turn on the next pass's text.
 */
const FIX_ALL_PASSES = 5;

async function fixAll(
  analyser: Analyser,
  state: ModuleState,
  snap: Snapshot,
  client: ClientProfile,
): Promise<CodeAction | undefined> {
  const before = countByCode(snap.diagnostics);
  let text = snap.text;
  let diagnostics = snap.diagnostics;
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
      : [{ range: { start: { line: 0, character: 0 }, end: endOf(snap.text) }, newText: text }];
  return { title: FIX_ALL_TITLE, kind: FIX_ALL_KIND, edit: editOf(snap, edits, client) };
}

const FIX_ALL_TITLE = 'Fix all auto-fixable Hooksmith problems';

/**
 * Fix All in the light bulb (where VS Code lists quick fixes only), as ESLint offers it: when the
 * cursor is on a fixable problem and the file has another. It runs the source action through
 * VS Code, so the passes are computed only when the user picks it.
 */
function fixAllInLightBulb(snap: Snapshot, asked: readonly Diagnostic[]): CodeAction | undefined {
  const fixable = snap.diagnostics.filter((d) => d.fixes?.some((f) => f.isPreferred && f.edits.length));
  if (fixable.length < 2 || !asked.some((lsp) => matching(fixable, lsp))) return undefined;
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

/**
 * The diagnostic the client means by `lsp`: same code, and the ranges share a line and overlap
 * (touching counts). Not the exact range and message: a client may send byte columns (Neovim 0.7)
 * or the range as its markers moved. Among several, the exact range first, then the closest start.
 */
export function matching(
  diagnostics: readonly HookDiagnostic[],
  lsp: Diagnostic,
): HookDiagnostic | undefined {
  const same = diagnostics.filter((d) => d.code === lsp.code && touches(d.range, lsp.range));
  const distance = (d: HookDiagnostic) =>
    sameRange(d.range, lsp.range)
      ? -1
      : Math.abs(d.range.start.line - lsp.range.start.line) * 1e6 +
        Math.abs(d.range.start.character - lsp.range.start.character);
  return same.sort((a, b) => distance(a) - distance(b))[0];
}

/** Ranges overlap or touch (an empty range at a diagnostic's end still names it). */
function touches(a: Range, b: Range): boolean {
  return !before(a.end, b.start) && !before(b.end, a.start);
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
