// What the server keeps per hook module (open buffer or file on disk), and the signatures that
// tell the analyser when a module's hooks changed (the hooks list) or its modify-hook
// registrations did (its siblings' duplicate-modify-hook check).
import type { HookDiagnostic } from '../runtime/rules/diagnostics';
import type { HookModule, SyntaxIssue } from '../runtime/python/model';
import { mantleHooks, phaseMethods } from '../runtime/python/hooks';
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
  hooksSignature?: string;
}

export function modifySignature(state: ModuleState): string {
  if (state.engine !== 'mantle') return '';
  return mantleHooks(state.model)
    .filter((h) => h.lane === 'modify')
    .map((h) => `${h.point.id}@${h.decorator.range.start.line}:${h.decorator.range.start.character}`)
    .join(',');
}

export function hooksSignature(state: ModuleState): string {
  if (state.engine === 'none') return '';
  const mantle = mantleHooks(state.model).map(
    (h) => `${h.fn.name}:${h.decorator.ref.text}:${h.timeoutMs}@${h.fn.nameRange.start.line}`,
  );
  const cayu = phaseMethods(state.model).map(
    (m) => `${m.cls.name}.${m.method.name}@${m.method.nameRange.start.line}`,
  );
  return `${state.engine}|${state.root}|${[...mantle, ...cayu].join(',')}`;
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
