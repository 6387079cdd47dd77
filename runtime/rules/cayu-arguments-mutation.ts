// Writes to `context.arguments` in a tool-call phase: the arguments are a read-only copy.
import type { HookDiagnostic } from './diagnostics';
import { contextParameter, phaseMethods } from './cayu-common';
import type { Rule } from './rule';
import { reportMessage } from './util/diagnostic';
import type { AttributeWrite, ClassDef, FunctionDef, LiteralValue } from '../python/model';
import { aliasesOf } from './util/aliases';

const CODE = 'cayu-arguments-mutation';
const ALIAS_COPY = 'a read-only copy (each read returns a fresh one), and is not used afterwards';
const MODIFY_INSTEAD =
  '; return BeforeToolCallDecision(action="proceed_modified", modified_arguments=...) instead';

export const cayuArgumentsMutation: Rule = {
  code: CODE,
  engine: 'cayu',
  severity: 'warning',
  title: 'Mutating `context.arguments` is a no-op',
  docs: {
    what: 'An assignment, deletion or mutating call (`update`, `pop`, `[k] = v`, …) on `context.arguments` inside `before_tool_call` or `after_tool_call`, directly or through a name bound only to it (`args = context.arguments; args["x"] = 1`, `self.args = context.arguments; self.args["x"] = 1`) that is then never passed on, returned or read by another method.',
    why: 'The context hands the hook a read-only copy of the arguments, a fresh deep copy on each read: the tool still runs with the original ones, so the change silently does nothing. (A name that holds the copy and is passed on, e.g. as `modified_arguments`, is fine: that is how a hook changes the call.)',
    spec: '"arguments is a read-only copy; mutating it is a no-op — a before-hook changes the call only by returning a BeforeToolCallDecision." (spec/cayu-runtime-hooks.md, BeforeToolCallHookContext).',
    fix: 'Copy and return a decision: `args = dict(context.arguments); args["limit"] = 10; return BeforeToolCallDecision(action="proceed_modified", modified_arguments=args)`.',
    example: {
      bad: `from cayu.observability import BeforeToolCallDecision, BeforeToolCallHookContext, RuntimeHook


class Guard(RuntimeHook):
    async def before_tool_call(self, context: BeforeToolCallHookContext) -> BeforeToolCallDecision | None:
        context.arguments["limit"] = 10
        return None
`,
      good: `from cayu.observability import BeforeToolCallDecision, BeforeToolCallHookContext, RuntimeHook


class Guard(RuntimeHook):
    async def before_tool_call(self, context: BeforeToolCallHookContext) -> BeforeToolCallDecision | None:
        arguments = dict(context.arguments)
        arguments["limit"] = 10
        return BeforeToolCallDecision(action="proceed_modified", modified_arguments=arguments)
`,
      file: 'runtime_hooks.py',
    },
  },
  fixable: false,
  messages: {
    copyWrite: '{{source}} is a read-only copy: this {{how}} is a no-op',
    copyWriteBeforeToolCall: `{{source}} is a read-only copy: this {{how}} is a no-op${MODIFY_INSTEAD}`,
    aliasWrite: `{{alias}} is {{source}}, ${ALIAS_COPY}: this {{how}} is a no-op`,
    aliasWriteBeforeToolCall: `{{alias}} is {{source}}, ${ALIAS_COPY}: this {{how}} is a no-op${MODIFY_INSTEAD}`,
  },
  check(ctx) {
    const { module } = ctx;
    const out: HookDiagnostic[] = [];
    for (const { method, cls } of phaseMethods(module)) {
      const context = contextParameter(method);
      if (!context) continue;
      const source = `${context.name}.arguments`;
      const aliases = aliasesOf(method.body, source).filter((a) => !aliasUsed(method, cls, a));
      for (const w of method.body.writes) {
        const direct = w.root === context.name && w.path[0] === 'arguments';
        const alias = direct ? undefined : aliases.find((a) => writesTo(w, a));
        if (!direct && !alias) continue;
        const how =
          w.kind === 'mutating-call' && w.method
            ? `.${w.method}()`
            : w.kind.includes('delete')
              ? 'del'
              : 'assignment';
        const id = `${alias ? 'aliasWrite' : 'copyWrite'}${method.name === 'before_tool_call' ? 'BeforeToolCall' : ''}`;
        out.push(reportMessage(this, ctx, w.range, id, { source, how, ...(alias ? { alias } : {}) }));
      }
    }
    return out;
  },
};

/** A write through the alias itself (`args[...] = …`, `args.update(…)`, `self.args[...] = …`). */
function writesTo(w: AttributeWrite, alias: string): boolean {
  if (w.kind === 'assign' || w.kind === 'augmented-assign' || w.kind === 'delete') return false;
  return [w.root, ...w.path].join('.') === alias;
}

/**
 * The alias is used after all (passed to a call, returned, bound to another name, or — for
 * `self.x` — read by another method): the copy it holds then carries the change somewhere, so
 * its mutation is no no-op.
 */
function aliasUsed(method: FunctionDef, cls: ClassDef, alias: string): boolean {
  const word = new RegExp(`(^|[^\\w.])${alias.replace('.', '\\.')}(?![\\w])`);
  const body = method.body;
  const inArguments = body.calls.some(
    (c) =>
      c.positional.some((p) => word.test(valueText(p.value))) ||
      c.keywords.some((k) => word.test(valueText(k.value))),
  );
  const returned = body.returns.some((r) => r.value && word.test(r.value.text));
  const rebound = body.bindings.some((b) => b.target !== alias && b.value && word.test(b.value.text));
  const elsewhere =
    alias.startsWith('self.') &&
    cls.methods.some(
      (m) =>
        m !== method && m.body.attributeReads.some((r) => r.root === 'self' && `self.${r.path[0]}` === alias),
    );
  return inArguments || returned || rebound || elsewhere;
}

function valueText(v: LiteralValue): string {
  if (v.kind === 'other') return v.text;
  if (v.kind === 'list') return v.items.map(valueText).join(',');
  if (v.kind === 'dict') return v.entries.map((e) => valueText(e.value)).join(',');
  return '';
}
