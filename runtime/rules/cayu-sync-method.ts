// A RuntimeHook phase method written as a plain `def`: the runtime awaits it.

import type { HookDiagnostic } from './diagnostics';
import { failureConsequence, phaseMethods } from './cayu-common';
import type { Rule } from './rule';
import { fix, reportMessage } from './util/diagnostic';

const CODE = 'cayu-sync-method';

export const cayuSyncMethod: Rule = {
  code: CODE,
  engine: 'cayu',
  severity: 'error',
  title: 'A RuntimeHook phase method must be `async def`',
  docs: {
    what: 'A `before_tool_call`, `after_tool_call` or `after_session_*` method of a `RuntimeHook` subclass declared with plain `def`.',
    why: 'The runtime awaits every phase method. A plain method runs, then awaiting the value it returned raises TypeError on every call; the runtime records the hook as failed and carries on without it (fail-open): a guard that would block a call lets it run unguarded.',
    spec: '"async RuntimeHook.before_tool_call(context: BeforeToolCallHookContext) -> BeforeToolCallDecision | None" — every phase of RuntimeHook is declared `async` (spec/cayu-runtime-hooks.md, RuntimeHook).',
    fix: 'Write `async def before_tool_call(self, context): ...` (the quick fix inserts `async `).',
    example: {
      bad: `from cayu.observability import BeforeToolCallDecision, BeforeToolCallHookContext, RuntimeHook


class Guard(RuntimeHook):
    def before_tool_call(self, context: BeforeToolCallHookContext) -> BeforeToolCallDecision | None:
        return None
`,
      good: `from cayu.observability import BeforeToolCallDecision, BeforeToolCallHookContext, RuntimeHook


class Guard(RuntimeHook):
    async def before_tool_call(self, context: BeforeToolCallHookContext) -> BeforeToolCallDecision | None:
        return None
`,
      file: 'runtime_hooks.py',
    },
  },
  fixable: true,
  messages: {
    notAsync:
      "{{method}} must be 'async def': the runtime awaits it, and awaiting its result raises TypeError on every call; {{consequence}}",
  },
  check(ctx) {
    const { module } = ctx;
    const out: HookDiagnostic[] = [];
    for (const { cls, method, phase } of phaseMethods(module)) {
      if (method.isAsync) continue;
      const at = method.defKeywordRange.start;
      const data = { method: `${cls.name}.${method.name}`, consequence: failureConsequence(phase.id) };
      out.push(
        reportMessage(this, ctx, method.nameRange, 'notAsync', data, {
          fixes: [
            fix(`Make ${method.name} async`, [{ range: { start: at, end: at }, newText: 'async ' }], true),
          ],
        }),
      );
    }
    return out;
  },
};
