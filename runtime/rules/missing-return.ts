// missing-return: a modify hook path that returns nothing (None).
import type { HookDiagnostic } from './diagnostics';
import type { Rule } from './rule';
import { q, reportMessage } from './util/diagnostic';
import { mantleHooks } from '../python/hooks';

export const missingReturn: Rule = {
  code: 'missing-return',
  engine: 'mantle',
  severity: 'warning',
  title: 'Modify hook path returns nothing',
  docs: {
    what: 'A modify hook (`modify_*`) that can reach the end of its body without a `return` (an implicit `return None`), or has an explicit bare `return` / `return None`. Paths that end in `raise` are fine.',
    why: "A modify hook returns the (updated) payload; `None` is an invalid return value, so the engine applies the point's fail policy — fail-closed points stop the action (e.g. the LLM call is skipped), fail-open points keep the original payload, silently undoing the hook.",
    spec: 'spec/mantle-hooks.md, Registration: "modify hooks take one typed payload and return the same type." modify_model_response: "Unexpected modifier crashes, timeouts, or invalid return values are **fail-open**: Mantle keeps the original response and continues."',
    fix: 'Return the payload on every path: `return payload` when nothing changes, `return payload.model_copy(update={...})` otherwise.',
    example: {
      bad: `from rasa.mantle.hooks import ToolCallPayload, modify_tool_call


@modify_tool_call()
async def cap_limit(call: ToolCallPayload) -> ToolCallPayload:
    if call.tool_name == "search":
        return call.model_copy(update={"arguments": {**call.arguments, "limit": 10}})
`,
      good: `from rasa.mantle.hooks import ToolCallPayload, modify_tool_call


@modify_tool_call()
async def cap_limit(call: ToolCallPayload) -> ToolCallPayload:
    if call.tool_name == "search":
        return call.model_copy(update={"arguments": {**call.arguments, "limit": 10}})
    return call
`,
    },
  },
  fixable: false,
  messages: {
    returnsNone:
      "{{decorator}} hook {{handler}} returns None here; None is an invalid return, so the engine applies the point's fail policy — {{effect}}. Return {{param}} to keep the payload unchanged.",
    fallsOffEnd:
      "{{decorator}} hook {{handler}} can reach the end of its body without returning (an implicit None); None is an invalid return, so the engine applies the point's fail policy — {{effect}}. Return {{param}} on every path.",
  },
  check(ctx) {
    const out: HookDiagnostic[] = [];
    for (const h of mantleHooks(ctx.module)) {
      if (h.lane !== 'modify') continue;
      const effect = h.point.failEffect ?? 'the engine rejects the result';
      const param = h.fn.parameters[0]?.name ?? 'payload';
      for (const r of h.fn.body.returns) {
        if (!r.returnsNone) continue;
        out.push(
          reportMessage(this, ctx, r.range, 'returnsNone', {
            decorator: q(h.hook.name),
            handler: q(h.fn.name),
            effect,
            param: q(param),
          }),
        );
      }
      if (h.fn.body.canFallOffEnd) {
        out.push(
          reportMessage(this, ctx, h.fn.nameRange, 'fallsOffEnd', {
            decorator: q(h.hook.name),
            handler: q(h.fn.name),
            effect,
            param: q(param),
          }),
        );
      }
    }
    return out;
  },
};
