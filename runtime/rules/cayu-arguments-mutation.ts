// Writes to `context.arguments` in a tool-call phase: the arguments are a read-only copy.
import type { HookDiagnostic } from './diagnostics';
import { contextParameter, phaseMethods } from './cayu-common';
import type { Rule } from './rule';

const CODE = 'cayu-arguments-mutation';

export const cayuArgumentsMutation: Rule = {
  code: CODE,
  engine: 'cayu',
  severity: 'warning',
  title: 'Mutating `context.arguments` is a no-op',
  docs: {
    what: 'An assignment, deletion or mutating call (`update`, `pop`, `[k] = v`, …) on `context.arguments` inside `before_tool_call` or `after_tool_call`.',
    why: 'The context hands the hook a read-only copy of the arguments: the tool still runs with the original ones, so the change silently does nothing.',
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
  check({ module }) {
    const out: HookDiagnostic[] = [];
    for (const { method } of phaseMethods(module)) {
      const ctx = contextParameter(method);
      if (!ctx) continue;
      for (const w of method.body.writes) {
        if (w.root !== ctx.name || w.path[0] !== 'arguments') continue;
        const how =
          w.kind === 'mutating-call' && w.method
            ? `.${w.method}()`
            : w.kind.includes('delete')
              ? 'del'
              : 'assignment';
        out.push({
          code: CODE,
          severity: 'warning',
          message: `${ctx.name}.arguments is a read-only copy: this ${how} is a no-op${
            method.name === 'before_tool_call'
              ? '; return BeforeToolCallDecision(action="proceed_modified", modified_arguments=...) instead'
              : ''
          }`,
          file: module.path,
          range: w.range,
        });
      }
    }
    return out;
  },
};
