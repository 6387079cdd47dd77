// The scaffold's pure logic, shared by the "Scaffold Hook" command and the snippet generator:
// a correct, typed hook for every Mantle decorator (18) and Cayu phase (5), in VS Code snippet
// syntax (`${1:name}`, `$0`), and plans that insert one into an existing file with its imports
// merged. Everything here comes from the catalogue; no point or type name is spelled here.
import {
  CAYU_BASE_CLASS,
  CAYU_DECISIONS,
  CAYU_MODULES,
  cayuHookImportModules,
  CAYU_PHASES,
  DEFAULT_TIMEOUT_MS,
  HOOK_DECORATORS,
  MANTLE_MODULE,
  spelledPoint,
  getPayloadType,
  mutableFieldNames,
  type CayuPhase,
  type HookDecorator,
} from '../catalogue';
import type { TextEdit } from '../rules/diagnostics';
import type { Position } from '../python/model';
import { buildModel } from '../python/build-model';
import { cayuHookClasses, modifyHooks } from '../python/hooks';
import { LINE_WIDTH, fromImportEdits, fromImportStatement, headEnd } from '../python/import-edits';
import type { HookModule } from '../python/model';
import { parse } from '../python/parser';
import { applyEdits, splitLines, topLevel } from './scaffold-source';
import { escapeSnippet } from './snippet-syntax';

export { applyEdits } from './scaffold-source';
export { escapeSnippet, expandSnippet } from './snippet-syntax';

export type ScaffoldTarget =
  { engine: 'mantle'; decorator: HookDecorator } | { engine: 'cayu'; phase: CayuPhase };

/** The Mantle decorators then the Cayu phases, in catalogue order. */
export function scaffoldTargets(): ScaffoldTarget[] {
  return [
    ...HOOK_DECORATORS.map((decorator) => ({ engine: 'mantle' as const, decorator })),
    ...CAYU_PHASES.map((phase) => ({ engine: 'cayu' as const, phase })),
  ];
}

export function targetLabel(t: ScaffoldTarget): string {
  return t.engine === 'mantle' ? t.decorator.name : t.phase.id;
}

/** "tool call · modify · 500 ms · fail-closed · RetryModel"; `wired`: runtime/catalogue/wiring.ts's word. */
export function targetDescription(t: ScaffoldTarget, wired?: boolean): string {
  if (t.engine === 'cayu')
    return `Cayu · ${t.phase.context}${t.phase.decision ? ` → ${t.phase.decision} | None` : ''}`;
  const { point, lane } = t.decorator;
  const parts = [point.title, lane, `${DEFAULT_TIMEOUT_MS[lane]} ms`];
  if (lane === 'modify' && point.failPolicy) parts.push(`fail-${point.failPolicy}`);
  if (lane === 'modify' && point.signals.length) parts.push(point.signals.join(', '));
  if (!(wired ?? point.wired)) parts.push('not wired');
  return parts.join(' · ');
}

export interface HookTemplate {
  /** Module the names are imported from. */
  module: string;
  /** Modules that export the same names (Cayu: three namespaces); an import from any counts. */
  equivalentModules: readonly string[];
  imports: string[];
  /** Top-level code in snippet syntax, ending with '\n'. */
  snippet: string;
}

/** The function name a new hook gets by default: not the decorator's own name, which it would shadow. */
export function defaultHookName(d: HookDecorator): string {
  return `${d.lane === 'observe' ? 'audit' : 'rewrite'}_${spelledPoint(d.point.id)}`;
}

/** Comment lines (≤ 88 columns once indented) saying what the hook may do, from the catalogue. */
function mantleComment(d: HookDecorator): string[] {
  const { point, lane } = d;
  if (lane === 'observe') {
    return [
      `# Observe: not awaited (${DEFAULT_TIMEOUT_MS.observe} ms); mutations, errors and signals have no effect.`,
    ];
  }
  const type = getPayloadType(point.payloadType);
  const signals = point.signals.length
    ? `raise ${point.signals.map((s) => `${s}(...)`).join(' or ')}`
    : 'no control signals';
  return [
    `# May change: ${mutableFieldNames(type).join(', ')} (payload.model_copy(update={...})).`,
    `# Signals: ${signals}. Crash/timeout (${DEFAULT_TIMEOUT_MS.modify} ms): fail-${point.failPolicy ?? 'open'}.`,
  ];
}

export function mantleTemplate(d: HookDecorator, name = defaultHookName(d)): HookTemplate {
  const type = d.point.payloadType;
  const returns = d.lane === 'modify' ? type : 'None';
  const body = d.lane === 'modify' ? '${0:return payload}' : '${0:return None}';
  const oneLine = `async def ${name}(payload: ${type}) -> ${returns}:`;
  const nameStop = `\${1:${escapeSnippet(name)}}`;
  // Past 88 columns, the signature is wrapped the way black wraps it.
  const signature =
    oneLine.length <= LINE_WIDTH
      ? [`async def ${nameStop}(payload: ${type}) -> ${returns}:`]
      : [`async def ${nameStop}(`, `    payload: ${type}`, `) -> ${returns}:`];
  const snippet = [
    `@${d.name}()`,
    ...signature,
    ...mantleComment(d).map((c) => `    ${escapeSnippet(c)}`),
    `    ${body}`,
    '',
  ].join('\n');
  return { module: MANTLE_MODULE, equivalentModules: [], imports: [type, d.name], snippet };
}

export function defaultClassName(phases: readonly CayuPhase[]): string {
  if (phases.length !== 1) return 'AuditHook';
  return `${phases[0]!.id.replace(/(^|_)(\w)/g, (_m, _u: string, c: string) => c.toUpperCase())}Hook`;
}

function cayuComment(phase: CayuPhase): string[] {
  const decision = CAYU_DECISIONS.find((d) => d.name === phase.decision);
  if (!decision) return ['# Runs after the session ends; the return value is ignored.'];
  const first = decision.actions.find((a) => !a.companion);
  return [
    `# Return None (${first?.action ?? 'no change'}) or ${decision.name}(action=...):`,
    ...decision.actions.filter((a) => a.companion).map((a) => `#   action="${a.action}", ${a.companion}=...`),
  ];
}

/** One phase method, indented by `indent` (snippet syntax; tab stops start at `firstStop`). */
export function cayuMethod(phase: CayuPhase, indent = '    ', finalStop = true): string {
  const returns = phase.decision ? `${phase.decision} | None` : 'None';
  const body = finalStop ? '${0:return None}' : 'return None';
  const oneLine = `${indent}async def ${phase.id}(self, context: ${phase.context}) -> ${returns}:`;
  // Past 88 columns, the signature is wrapped the way black wraps it.
  const signature =
    oneLine.length <= LINE_WIDTH
      ? [oneLine]
      : [
          `${indent}async def ${phase.id}(`,
          `${indent}    self, context: ${phase.context}`,
          `${indent}) -> ${returns}:`,
        ];
  return [
    ...signature,
    ...cayuComment(phase).map((c) => `${indent}    ${escapeSnippet(c)}`),
    `${indent}    ${body}`,
    '',
  ].join('\n');
}

function cayuImports(phases: readonly CayuPhase[], withBase: boolean): string[] {
  const names = phases.flatMap((p) => (p.decision ? [p.context, p.decision] : [p.context]));
  return [...new Set([...(withBase ? [CAYU_BASE_CLASS] : []), ...names])];
}

/** A RuntimeHook subclass overriding `phases` (the last method holds the final tab stop). */
export function cayuClassTemplate(
  phases: readonly CayuPhase[],
  className = defaultClassName(phases),
): HookTemplate {
  const methods = phases.map((p, i) => cayuMethod(p, '    ', i === phases.length - 1));
  const snippet = [`class \${1:${escapeSnippet(className)}}(${CAYU_BASE_CLASS}):`, methods.join('\n')].join(
    '\n',
  );
  return {
    ...cayuHookImportModules(CAYU_MODULES),
    imports: cayuImports(phases, true),
    snippet,
  };
}

/** A whole module for a new file: docstring, imports, the hook. */
export function newModuleText(template: HookTemplate, docstring: string): string {
  const imports = fromImportStatement(template.module, template.imports);
  return `"""${docstring}"""\n\n${imports}\n\n\n${template.snippet}`;
}

interface ImportPlan {
  edits: TextEdit[];
  /** The text once the edits are applied. */
  after: string;
  /** Lines the edits add (to shift a cursor below them). */
  lineDelta: number;
  /** First line below the imports in `after`: code goes there or lower. */
  firstCodeLine: number;
}

/** The template's imports merged into the text (runtime/python/import-edits.ts). */
function planImports(
  text: string,
  t: Pick<HookTemplate, 'module' | 'imports' | 'equivalentModules'>,
): ImportPlan {
  const edits = fromImportEdits(modelOf(text), text, t.module, t.imports, t.equivalentModules);
  const after = applyEdits(text, edits);
  const lineDelta = edits.reduce(
    (n, e) => n + e.newText.split(/\r\n|\r|\n/).length - 1 - (e.range.end.line - e.range.start.line),
    0,
  );
  return { edits, after, lineDelta, firstCodeLine: headEnd(modelOf(after)) };
}

export interface InsertionPlan {
  /** Apply first (one undoable edit): the merged imports. */
  importEdits: TextEdit[];
  /** Where the snippet goes, in the text after importEdits. */
  position: Position;
  /** What to insert there, in snippet syntax, padded with blank lines. */
  snippet: string;
}

/** Blank lines to pad an insertion at line `at` with `want` blank lines above and below (PEP 8). */
function padding(
  lines: readonly string[],
  at: number,
  want: number,
): { before: number; after: number; needsNewline: boolean } {
  let above = 0;
  for (let i = at - 1; i >= 0 && lines[i]!.trim() === ''; i--) above++;
  const codeAbove = lines.slice(0, at).some((l) => l.trim() !== '');
  let below = 0;
  for (let i = at; i < lines.length && lines[i]!.trim() === ''; i++) below++;
  const codeBelow = lines.slice(at).some((l) => l.trim() !== '');
  return {
    before: codeAbove ? Math.max(0, want - above) : 0,
    after: codeBelow ? Math.max(0, want - below) : 0,
    needsNewline: false,
  };
}

/**
 * Line where a top-level definition goes for a cursor on `cursorLine`: the cursor's line when it is
 * between statements, else after the statement holding it; never above `minLine`.
 */
export function topLevelInsertionLine(text: string, cursorLine: number, minLine = 0): number {
  const lines = splitLines(text);
  const blocks = topLevel(text);
  let at = Math.min(cursorLine, lines.length);
  const holder = blocks.find((b) => b.start <= at && at <= b.end);
  if (holder) at = holder.end + 1;
  if (at < minLine) {
    at = minLine;
    const inside = blocks.find((b) => b.start < at && at <= b.end);
    if (inside) at = inside.end + 1;
  }
  return at;
}

function insertAt(
  text: string,
  line: number,
  body: string,
  want: number,
): { position: Position; snippet: string } {
  const lines = splitLines(text);
  if (line >= lines.length) {
    // Past the end: append, after a newline when the file does not end with one.
    const last = lines.length - 1;
    const pad = padding(lines, lines.length, want);
    const lead = lines[last] === '' ? '' : '\n';
    return {
      position: { line: last, character: lines[last]!.length },
      snippet: lead + '\n'.repeat(pad.before) + body,
    };
  }
  const pad = padding(lines, line, want);
  return {
    position: { line, character: 0 },
    snippet: '\n'.repeat(pad.before) + body + '\n'.repeat(pad.after),
  };
}

/** Plans a Mantle hook at the cursor: imports merged, the hook after the imports and outside any other statement. */
export function planMantleHook(
  text: string,
  cursorLine: number,
  d: HookDecorator,
  name?: string,
): InsertionPlan {
  const template = mantleTemplate(d, uniqueName(text, name ?? defaultHookName(d), 'def'));
  const imports = planImports(text, template);
  const after = imports.after;
  const importEnd = imports.edits[0]?.range.start.line ?? 0;
  const cursor = cursorLine >= importEnd ? cursorLine + imports.lineDelta : cursorLine;
  const line = topLevelInsertionLine(after, cursor, imports.firstCodeLine);
  return { importEdits: imports.edits, ...insertAt(after, line, template.snippet, 2) };
}

/** `base`, or `base_2`, `base_3`… when a def/class of that name exists in the text. */
export function uniqueName(text: string, base: string, kind: 'def' | 'class'): string {
  const taken = (n: string) =>
    new RegExp(`^\\s*${kind === 'def' ? '(?:async\\s+)?def' : 'class'}\\s+${n}\\b`, 'm').test(text);
  if (!taken(base)) return base;
  for (let i = 2; ; i++) if (!taken(`${base}_${i}`)) return `${base}_${i}`;
}

/** The hook model of a text (the scaffold plans on the editor's text, parsed here). */
function modelOf(text: string): HookModule {
  const tree = parse(text);
  try {
    return buildModel(tree, text, 'scaffold.py');
  } finally {
    tree.delete();
  }
}

/** Lines (0-based) of the modify hooks already registered for `decorator` in this text. */
export function modifyHooksInText(text: string, d: HookDecorator): number[] {
  if (d.lane !== 'modify') return [];
  return modifyHooks(modelOf(text))
    .filter((h) => h.hook === d)
    .map((h) => h.fn.range.start.line);
}

export interface RuntimeHookClass {
  name: string;
  start: number;
  end: number;
  /** Indentation of the class body. */
  bodyIndent: string;
  methods: string[];
}

/** The module-level RuntimeHook subclasses of the text (the hook query's), with their extent. */
export function runtimeHookClasses(text: string): RuntimeHookClass[] {
  const lines = splitLines(text);
  const blocks = topLevel(text);
  return cayuHookClasses(modelOf(text))
    .filter((c) => c.runnable)
    .map(({ cls }) => {
      const start = cls.range.start.line;
      const end = blocks.find((b) => b.start === start)?.end ?? cls.range.end.line;
      const header = cls.nameRange.start.line;
      const first = lines
        .slice(header + 1, end + 1)
        .find((l) => l.trim() !== '' && !l.trim().startsWith('#'));
      const bodyIndent = first ? (/^\s*/.exec(first)?.[0] ?? '    ') : '    ';
      return { name: cls.name, start, end, bodyIndent, methods: cls.methods.map((m) => m.name) };
    });
}

export type CayuPlan =
  | (InsertionPlan & { kind: 'method' | 'class'; className: string })
  | { kind: 'exists'; className: string; line: number };

/**
 * Plans a Cayu phase at the cursor: a method at the end of the RuntimeHook subclass holding the
 * cursor (or `exists` when it already overrides the phase), else a new subclass.
 */
export function planCayuHook(text: string, cursorLine: number, phase: CayuPhase): CayuPlan {
  const holder = runtimeHookClasses(text).find((c) => c.start <= cursorLine && cursorLine <= c.end);
  if (holder && holder.methods.includes(phase.id)) {
    const line = splitLines(text).findIndex(
      (l, i) => i > holder.start && i <= holder.end && new RegExp(`def\\s+${phase.id}\\b`).test(l),
    );
    return { kind: 'exists', className: holder.name, line };
  }
  if (holder) {
    const imports = planImports(text, {
      ...cayuHookImportModules(CAYU_MODULES),
      imports: cayuImports([phase], false),
    });
    const after = imports.after;
    const end =
      holder.end + (holder.start >= (imports.edits[0]?.range.start.line ?? 0) ? imports.lineDelta : 0);
    const lines = splitLines(after);
    const method = cayuMethod(phase, holder.bodyIndent);
    const lead = end + 1 >= lines.length && lines[lines.length - 1] !== '' ? '\n' : '';
    if (end + 1 >= lines.length) {
      const last = lines.length - 1;
      return {
        kind: 'method',
        className: holder.name,
        importEdits: imports.edits,
        position: { line: last, character: lines[last]!.length },
        snippet: `${lead}\n${method}`,
      };
    }
    return {
      kind: 'method',
      className: holder.name,
      importEdits: imports.edits,
      position: { line: end + 1, character: 0 },
      snippet: `\n${method}`,
    };
  }
  const className = uniqueName(text, defaultClassName([phase]), 'class');
  const template = cayuClassTemplate([phase], className);
  const imports = planImports(text, template);
  const after = imports.after;
  const importEnd = imports.edits[0]?.range.start.line ?? 0;
  const cursor = cursorLine >= importEnd ? cursorLine + imports.lineDelta : cursorLine;
  const line = topLevelInsertionLine(after, cursor, imports.firstCodeLine);
  return {
    kind: 'class',
    className,
    importEdits: imports.edits,
    ...insertAt(after, line, template.snippet, 2),
  };
}
