// A scenario or payload-case file's problems as diagnostics at their key or value: what the
// editor shows as you type. The file is read by the same loader `hooksmith test` uses
// (readScenarioText, readPayloadCaseText), so a file the CLI refuses shows the same words here;
// on top, names the agent or the scenario does not have (warnings, see case-names.ts).
import { REPOSITORY_URL, type Fix, type HookDiagnostic, type Severity } from '../rules/diagnostics';
import type { Range } from '../python/model';
import { readScenarioText, ScenarioError } from '../engine/scenario-load';
import { mantleKeyPath } from '../engine/mantle-scenario';
import type { FileIssue } from '../json/json-path';
import { isPayloadFile, isScenarioFile, readPayloadCaseText } from './discover-cases';
import { keyRanges, type KeyRanges } from './key-ranges';
import { unknownPayloadHook, unknownScenarioNames, type AgentHookName, type UnknownName } from './case-names';

/** The codes of case-file diagnostics (docs/files.md, "Checks in the editor"). */
export const CASE_CODES = {
  syntax: 'case-syntax',
  'unknown-key': 'case-unknown-key',
  'invalid-value': 'case-invalid-value',
  'invalid-regex': 'case-invalid-regex',
  hook: 'case-unknown-hook',
  point: 'case-unknown-point',
  tool: 'case-unknown-tool',
} as const;

/** Where the case-file checks are documented. */
export const CASE_DOCS_URL = `${REPOSITORY_URL}/blob/main/docs/files.md#checks-in-the-editor`;

export type CaseCode = (typeof CASE_CODES)[keyof typeof CASE_CODES];

export const CASE_CODE_LIST: readonly string[] = Object.values(CASE_CODES);

export interface CaseCheckOptions {
  /** The hooks of the agent at this root (absolute), or undefined when unknown. */
  agentHooks?(agentRoot: string): readonly AgentHookName[] | undefined;
  workspaceRoots?: readonly string[];
}

/** A scenario (`*.scenario.yaml|yml|json`, `eval/scenarios/*.yml`) or a payload file (`.hooksmith/payloads/*.json`). */
export function isCaseFile(file: string): boolean {
  return isScenarioFile(file) || isPayloadFile(file);
}

/** Never throws: a problem of the file is a diagnostic, anything else is left to the caller's log. */
export function checkCaseFile(file: string, text: string, options: CaseCheckOptions = {}): HookDiagnostic[] {
  return problemsOf(file, text, options).map((d) => ({ ...d, docsUrl: CASE_DOCS_URL }));
}

function problemsOf(file: string, text: string, options: CaseCheckOptions): HookDiagnostic[] {
  const ranges = keyRanges(text);
  const diag = (code: CaseCode, severity: Severity, message: string, range = ranges.valueRange([])) => ({
    code,
    severity,
    message,
    file,
    range,
  });
  try {
    if (isScenarioFile(file)) {
      const loaded = readScenarioText(file, text, file, options.workspaceRoots);
      if ('engineOnly' in loaded) return [];
      const names = unknownScenarioNames(loaded.scenario, options.agentHooks?.(loaded.agentRoot));
      const at = loaded.mantle ? mantleKeyPath : (p: readonly (string | number)[]) => [...p];
      return names.map((n) => nameDiagnostic(file, ranges, { ...n, path: at(n.path) }));
    }
    const read = readPayloadCaseText(file, text);
    if (!read) return [];
    return unknownPayloadHook(read.hook, options.agentHooks?.(read.agentRoot)).map((n) =>
      nameDiagnostic(file, ranges, n),
    );
  } catch (err) {
    if (!(err instanceof ScenarioError)) throw err;
    if (err.syntax.length)
      return err.syntax.map((s) =>
        diag(CASE_CODES.syntax, 'error', `${syntaxLabel(file)}: ${s.message}`, ranges.at(s.offset, s.end)),
      );
    if (err.issues.length) return err.issues.map((i) => issueDiagnostic(file, ranges, i));
    // A problem of the whole file ("not a Mantle scenario", an agent outside the workspace).
    const words = [err.message.replace(`${file}: `, ''), ...err.details].join(': ');
    return [diag(CASE_CODES['invalid-value'], 'error', words)];
  }
}

const syntaxLabel = (file: string) => (file.endsWith('.json') ? 'not valid JSON' : 'not valid YAML');

/**
 * A missing key's diagnostic stands on its parent: the message names the key ("name is missing:
 * expected string"), which "expected string (missing)" left out (#31 item 9).
 */
function issueMessage(i: FileIssue): string {
  const missing = / \(missing\)$/.test(i.message) ? i.path[i.path.length - 1] : undefined;
  if (missing === undefined) return i.message;
  return `${typeof missing === 'number' ? `item ${missing}` : String(missing)} is missing: ${i.message.replace(/ \(missing\)$/, '')}`;
}

function issueDiagnostic(file: string, ranges: KeyRanges, i: FileIssue): HookDiagnostic {
  const range = i.key !== undefined ? ranges.keyRange(i.path, i.key) : ranges.valueRange(i.path);
  const message = issueMessage(i);
  const d: HookDiagnostic = { code: CASE_CODES[i.kind], severity: 'error', message, file, range };
  const key = i.key !== undefined ? ranges.keyText(i.path, i.key) : undefined;
  if (key && i.suggestion) d.fixes = [changeTo(key, i.suggestion, i.suggestion)];
  return d;
}

function nameDiagnostic(file: string, ranges: KeyRanges, n: UnknownName): HookDiagnostic {
  const value = ranges.scalarText(n.path);
  const range = value ?? ranges.valueRange(n.path);
  const d: HookDiagnostic = {
    code: CASE_CODES[n.kind],
    severity: 'warning',
    message: n.message,
    file,
    range,
  };
  if (value && n.suggestion && n.replacement) d.fixes = [changeTo(value, n.suggestion, n.replacement)];
  return d;
}

const changeTo = (range: Range, suggestion: string, newText: string): Fix => ({
  title: `Change to '${suggestion}'`,
  edits: [{ range, newText }],
  isPreferred: true,
});
