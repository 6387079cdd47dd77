// What the server keeps per hook module (open buffer or file on disk), and the signatures that
// tell the analyser when a module's hooks changed (the hooks list) or its modify-hook
// registrations did (its siblings' duplicate-modify-hook check).
import type { HookDiagnostic } from '../runtime/rules/diagnostics';
import type { HookModule, Range, SyntaxIssue } from '../runtime/python/model';
import { withVerdict } from '../runtime/cpython/syntax-checker';
import { mantleHooks, phaseMethods, type MantleHook } from '../runtime/python/hooks';
import type { HookEngine } from './hook-files';
import type { ParsedText } from './parsed-text';

export interface ModuleState {
  key: string;
  /** Absolute path; undefined for buffers not on disk. */
  path: string | undefined;
  uri: string;
  text: string;
  /** Open buffer (wins over the disk). */
  buffer?: ParsedText;
  model: HookModule;
  /** Buffer version the model was built from. */
  modelVersion?: number;
  engine: HookEngine;
  root: string;
  /** Last diagnostics published (core form, suppressions applied), for code actions. */
  diagnostics: HookDiagnostic[];
  /** The buffer version `diagnostics` were computed for (code actions wait until it is current). */
  diagnosticsVersion?: number;
  /** The rules' diagnostics before suppressions, for the sibling refresh. */
  found?: HookDiagnostic[];
  /** CPython's last verdict and the text it was for. */
  cpython?: { text: string; verdict: SyntaxIssue | null };
  /** Modify-hook registrations, to know when siblings need their duplicate check re-run. */
  modifySignature: string;
  /** Every hook's handler, point and line, to know when the hooks list changed. */
  hooksSignature?: HooksSignature;
}

export function modifySignature(state: ModuleState): string {
  if (state.engine !== 'mantle') return '';
  return mantleHooks(state.model)
    .filter((h) => h.lane === 'modify')
    .map((h) => `${h.point.id}@${h.decorator.range.start.line}:${h.decorator.range.start.character}`)
    .join(',');
}

/** What the hooks list shows of a module: compared, not rebuilt as text, on every edit. */
export interface HooksSignature {
  head: string;
  mantle: readonly MantleHook[];
  cayu: string;
}

export function hooksSignature(state: ModuleState): HooksSignature {
  const head = `${state.engine}|${state.root}`;
  if (state.engine === 'none') return { head, mantle: [], cayu: '' };
  const cayu = phaseMethods(state.model)
    .map((m) => `${m.cls.name}.${m.method.name}@${m.method.nameRange.start.line}`)
    .join(',');
  return { head, mantle: mantleHooks(state.model), cayu };
}

/**
 * Whether two signatures list the same hooks. A hook record kept from the previous build (its
 * def was reused, so its text and start are unchanged) is the same object: only new ones are compared.
 */
export function sameHooks(a: HooksSignature | undefined, b: HooksSignature): boolean {
  if (!a || a.head !== b.head || a.cayu !== b.cayu || a.mantle.length !== b.mantle.length) return false;
  return a.mantle.every((h, i) => h === b.mantle[i] || mantleKey(h) === mantleKey(b.mantle[i]!));
}

/** Takes the module's hooks signature anew; true when the hooks list changed. */
export function refreshHooksSignature(state: ModuleState): boolean {
  const next = hooksSignature(state);
  if (sameHooks(state.hooksSignature, next)) return false;
  state.hooksSignature = next;
  return true;
}

function mantleKey(h: MantleHook): string {
  return `${h.fn.name}:${h.decorator.ref.text}:${h.timeoutMs}@${h.fn.nameRange.start.line}`;
}

/** Whether a module is in the hooks list (a hook module: its removal changes the list). */
export function listsHooks(s: HooksSignature | undefined): boolean {
  return !!s && !s.head.startsWith('none|');
}

export function emptyModel(path: string): HookModule {
  return {
    path,
    syntaxErrors: [],
    futureAnnotations: false,
    imports: [],
    functions: [],
    classes: [],
    lineCount: 0,
  };
}

/**
 * The module's model with CPython's verdict, which wins over tree-sitter's (it is what the engine
 * runs). A verdict for an older text is still used while tree-sitter sees no error and the lines it
 * points at are unchanged, so an error only CPython finds (`def f(a=1, b)`) does not flicker away on
 * every keystroke elsewhere; once those lines are edited or moved, it waits for the next check (a
 * publish never shows an older text's error at a place that changed).
 */
export function withCpython(state: ModuleState): HookModule {
  const v = state.cpython;
  if (!v) return state.model;
  if (v.text === state.text) return withVerdict(state.model, v.verdict);
  if (state.model.syntaxErrors.length === 0 && v.verdict && sameLines(v.text, state.text, v.verdict.range))
    return withVerdict(state.model, v.verdict);
  return state.model;
}

/** Whether `a` and `b` have the same text on the lines of `range`. */
function sameLines(a: string, b: string, range: Range): boolean {
  const la = a.split('\n', range.end.line + 1);
  const lb = b.split('\n', range.end.line + 1);
  for (let i = range.start.line; i <= range.end.line; i++) if (la[i] !== lb[i]) return false;
  return true;
}

/**
 * Buffers longer than this (characters, about bytes for source code) are analysed when opened
 * and saved, not on every edit: a rebuild of a module this size costs seconds.
 */
export const SAVE_ONLY_CHARS = 2_000_000;

export function errText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
