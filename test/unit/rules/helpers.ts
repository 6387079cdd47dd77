// Test helpers for the rules: real Python source → the real parser and model builder → one rule.
import type { RuleEnvironment } from '../../../runtime/rules/rule';
import assert from 'node:assert/strict';
import { buildModel } from '../../../runtime/python/build-model';
import { initParser, parse } from '../../../runtime/python/parser';
import type { HookModule } from '../../../runtime/python/model';
import type { HookDiagnostic, TextEdit } from '../../../runtime/rules/diagnostics';
import { RULES } from '../../../runtime/rules';
import type { Rule } from '../../../runtime/rules/rule';

export function parseModule(source: string, path = 'hooks.py'): HookModule {
  const tree = parse(source);
  try {
    return buildModel(tree, source, path);
  } finally {
    tree.delete();
  }
}

export function ruleFor(code: string): Rule {
  const rule = RULES.find((r) => r.code === code);
  if (!rule) throw new Error(`no rule ${code}`);
  return rule;
}

export interface DiagnoseOptions {
  path?: string;
  /** Other hook modules of the same agent: path → source. */
  siblings?: Record<string, string>;
  /** The installed environment the rule sees (import-error, unknown-import, not-wired). */
  environment?: RuleEnvironment;
}

/** Parses `source` with the real parser and runs the one rule `code` on it. */
export async function diagnose(
  code: string,
  source: string,
  options: DiagnoseOptions = {},
): Promise<HookDiagnostic[]> {
  await initParser();
  const module = parseModule(source, options.path ?? 'hooks.py');
  const siblings = Object.entries(options.siblings ?? {}).map(([p, s]) => parseModule(s, p));
  return ruleFor(code).check({
    module,
    text: source,
    agentModules: [module, ...siblings],
    isMantleModule: true,
    ...(options.environment ? { environment: options.environment } : {}),
  });
}

/** Applies non-overlapping edits to a text (LSP positions). */
export function applyEdits(text: string, edits: readonly TextEdit[]): string {
  const starts = [0];
  for (let i = 0; i < text.length; i++) if (text[i] === '\n') starts.push(i + 1);
  const offset = (p: { line: number; character: number }) =>
    p.line >= starts.length ? text.length : Math.min(starts[p.line] + p.character, text.length);
  const sorted = [...edits].sort((a, b) => offset(b.range.start) - offset(a.range.start));
  let out = text;
  for (const e of sorted)
    out = out.slice(0, offset(e.range.start)) + e.newText + out.slice(offset(e.range.end));
  return out;
}

/** Applies the first (or the preferred) fix of a diagnostic. */
export function applyFix(text: string, d: HookDiagnostic, index = 0): string {
  const f = d.fixes?.[index];
  assert.ok(f, `diagnostic ${d.code} "${d.message}" has no fix #${index}`);
  return applyEdits(text, f.edits);
}

/** Asserts the diagnostics start at exactly these 1-based `line:column` places (in order). */
export function expectAt(diags: readonly HookDiagnostic[], places: readonly string[]): void {
  assert.deepEqual(
    diags.map((d) => `${d.range.start.line + 1}:${d.range.start.character + 1}`),
    places,
    diags
      .map((d) => `${d.code} ${d.range.start.line + 1}:${d.range.start.character + 1} ${d.message}`)
      .join('\n'),
  );
}

/** The source text a diagnostic's range covers. */
export function rangeText(text: string, d: HookDiagnostic): string {
  const lines = text.split('\n');
  const { start, end } = d.range;
  if (start.line === end.line) return lines[start.line].slice(start.character, end.character);
  return [
    lines[start.line].slice(start.character),
    ...lines.slice(start.line + 1, end.line),
    lines[end.line].slice(0, end.character),
  ].join('\n');
}

/** Python source from an indented template literal: drops the first newline and common indentation. */
export function py(strings: TemplateStringsArray, ...values: unknown[]): string {
  const raw = strings.reduce((acc, s, i) => acc + s + (i < values.length ? String(values[i]) : ''), '');
  const lines = raw.replace(/^\n/, '').split('\n');
  const indent = Math.min(...lines.filter((l) => l.trim()).map((l) => /^ */.exec(l)![0].length));
  return lines
    .map((l) => l.slice(indent))
    .join('\n')
    .replace(/[ ]+$/, '');
}
