// What the server keeps per hook module (open buffer or file on disk), and the signatures that
// tell the analyser when a module's hooks changed (the hooks list) or its modify-hook
// registrations did (its siblings' duplicate-modify-hook check).
import type { HookDiagnostic } from '../runtime/rules/diagnostics';
import type { HookModule, SyntaxIssue } from '../runtime/python/model';
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
