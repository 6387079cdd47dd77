// syntax-error: the module does not compile. One diagnostic, the first real error.
import type { Rule } from './rule';
import { reportMessage } from './util/diagnostic';

export const syntaxError: Rule = {
  code: 'syntax-error',
  engine: 'python',
  severity: 'error',
  title: 'The hook module has a syntax error',
  docs: {
    what: 'A hook module that Python cannot compile. Only the first error is reported: later ones are often echoes of it.',
    why: 'The engine imports every hook module when it validates the agent; a module that does not compile fails `rasa train` and model load, and none of its hooks register.',
    spec: 'spec/mantle-hooks.md, Validation: "Validation checks: import and syntax errors". DESIGN.md: "Syntax errors must match what CPython reports".',
    fix: 'Fix the code at the reported position. When a Python interpreter is available the message is the one CPython itself gives.',
    example: {
      bad: `from rasa.mantle.hooks import ToolCallPayload, modify_tool_call


@modify_tool_call()
async def guard(call: ToolCallPayload) -> ToolCallPayload
    return call
`,
      good: `from rasa.mantle.hooks import ToolCallPayload, modify_tool_call


@modify_tool_call()
async def guard(call: ToolCallPayload) -> ToolCallPayload:
    return call
`,
    },
  },
  fixable: false,
  messages: {
    byPython: '{{message}} (reported by Python)',
    byParser: '{{message}}',
  },
  check(ctx) {
    const first = ctx.module.syntaxErrors[0];
    if (!first) return [];
    const id = first.source === 'cpython' ? 'byPython' : 'byParser';
    return [reportMessage(this, ctx, first.range, id, { message: first.message })];
  },
};
