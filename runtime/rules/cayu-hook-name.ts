// cayu-hook-name: a hook's `name` that registration rejects (catalogue: CAYU_HOOK_NAME_RULE) —
// blank, padded with whitespace, holding NUL, not a string, or a plain method (not a property).
import { CAYU_HOOK_NAME_RULE } from '../catalogue';
import type { HookDiagnostic } from './diagnostics';
import { cayuHookClasses } from '../python/hooks';
import type { FunctionDef, LiteralValue, Range } from '../python/model';
import type { Rule } from './rule';
import { fix, q, reportMessage } from './util/diagnostic';
import type { Fix } from './diagnostics';

const CODE = 'cayu-hook-name';
const PROPERTY_DECORATORS = new Set(['property', 'functools.cached_property', 'cached_property']);

interface Problem {
  why: string;
  fixes: Fix[];
}

/** Why registration rejects this literal value; undefined when it accepts it (or it is not a literal). */
function problemWith(v: LiteralValue, range: Range): Problem | undefined {
  switch (v.kind) {
    case 'string': {
      if (!v.value.trim()) return { why: 'is blank', fixes: [] };
      if (v.value.includes('\0')) return { why: 'holds a NUL character', fixes: [] };
      if (v.value !== v.value.trim())
        return {
          why: 'starts or ends with whitespace',
          fixes: [
            fix(`Strip it: "${v.value.trim()}"`, [{ range, newText: JSON.stringify(v.value.trim()) }], true),
          ],
        };
      return undefined;
    }
    case 'none':
      return { why: 'is None, not a str', fixes: [] };
    case 'number':
    case 'bool':
      return { why: `is a ${v.kind === 'bool' ? 'bool' : 'number'}, not a str`, fixes: [] };
    case 'list':
    case 'dict':
      return { why: `is a ${v.kind}, not a str`, fixes: [] };
    default:
      return undefined;
  }
}

function isProperty(fn: FunctionDef): boolean {
  return fn.decorators.some((d) => PROPERTY_DECORATORS.has(d.ref.qualified ?? d.ref.text));
}

export const cayuHookName: Rule = {
  code: CODE,
  engine: 'cayu',
  severity: 'error',
  title: "A hook's `name` is blank or not a string",
  docs: {
    what: 'A `RuntimeHook` subclass whose `name` — a class attribute (`name = ""`, `name = None`, `name = 3`) or a `@property` returning such a literal — is not a clean, non-blank string; or a `def name(self)` without `@property` (the runtime then reads a bound method, not a string).',
    why: `Registration reads \`hook.name\` once and rejects it unless it is exactly a \`str\`, not blank, without surrounding whitespace and NUL (\`require_durable_clean_nonblank\`; ${CAYU_HOOK_NAME_RULE.source}). The error is raised when the hooks are registered, so the app is not built and no hook of it runs.`,
    spec: 'spec/cayu-runtime-hooks.md, RuntimeHook: "name (property)" / "RuntimeHook.name() -> str"; DESIGN.md: "`name` (a property) defaults to the class name and names the hook in events".',
    fix: 'Give a non-blank string without surrounding whitespace (`name = "audit"`), or leave `name` out: it defaults to the class name. A padded string is stripped by the quick fix; a `def name(self)` gets `@property`.',
    example: {
      bad: `from cayu.observability import RuntimeHook, ToolCallHookContext


class Audit(RuntimeHook):
    name = " "

    async def after_tool_call(self, context: ToolCallHookContext) -> None:
        return None
`,
      good: `from cayu.observability import RuntimeHook, ToolCallHookContext


class Audit(RuntimeHook):
    name = "audit"

    async def after_tool_call(self, context: ToolCallHookContext) -> None:
        return None
`,
      file: 'runtime_hooks.py',
    },
  },
  fixable: true,
  messages: {
    invalidName:
      "The hook's {{name}} {{what}}: registration raises, and the app is not built. Use a non-blank string, or leave it out (default: the class name).",
  },
  check(ctx) {
    const out: HookDiagnostic[] = [];
    const say = (range: Range, what: string, fixes: Fix[]) =>
      out.push(reportMessage(this, ctx, range, 'invalidName', { name: q('name'), what }, { fixes }));
    for (const { cls } of cayuHookClasses(ctx.module)) {
      for (const a of cls.attributes) {
        if (a.name !== 'name') continue;
        const p = problemWith(a.value, valueRange(a.range, ctx.text));
        if (p) say(a.range, p.why, p.fixes);
      }
      for (const m of cls.methods) {
        if (m.name !== 'name') continue;
        if (!isProperty(m)) {
          const at = m.decorators[0]?.range.start ?? m.defKeywordRange.start;
          const indent = ' '.repeat(at.character);
          const addProperty = [{ range: { start: at, end: at }, newText: `@property\n${indent}` }];
          say(m.nameRange, 'is a method, not a property (the runtime reads a bound method, not a str)', [
            fix('Make it a @property', addProperty, true),
          ]);
          continue;
        }
        // Registration reads the property once: reported only when every return is rejected
        // (a property that returns a good name first and a bad one later registers fine).
        const returns = m.body.returns.map((r) => ({
          r,
          p: r.value?.literal && !r.value.call ? problemWith(r.value.literal, r.value.range) : undefined,
        }));
        if (!returns.length || returns.some((x) => !x.p)) continue;
        for (const { r, p } of returns)
          say(r.value!.range, `property returns a value that ${p!.why}`, p!.fixes);
      }
    }
    return out;
  },
};

/** The value part of a class attribute `name = <value>` (for the strip fix), from its statement range. */
function valueRange(stmt: Range, text: string): Range {
  if (stmt.start.line !== stmt.end.line) return stmt;
  const line = text.split('\n')[stmt.start.line] ?? '';
  const eq = line.indexOf('=', stmt.start.character);
  if (eq < 0) return stmt;
  let start = eq + 1;
  while (line[start] === ' ') start++;
  return { start: { line: stmt.start.line, character: start }, end: stmt.end };
}
