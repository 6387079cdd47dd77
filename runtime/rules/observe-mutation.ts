// observe-mutation: an observe hook that changes or returns its payload — to no effect.
import { MANTLE_POINTS } from '../catalogue';
import type { HookDiagnostic } from './diagnostics';
import type { Rule } from './rule';
import { q, reportMessage } from './util/diagnostic';
import { payloadParameter } from '../python/hooks';
import { checkHooks, cleanHooksBit, type CleanHooks } from './util/clean-hooks';

/** Per point, the end of each message: where a change can be made instead (built once). */
const MODIFY_HINT = new Map(
  MANTLE_POINTS.map((p) => [
    p,
    p.hasModifyLane
      ? `; to change it, use ${q('modify_' + p.id)}`
      : `; the ${p.title} point has no modify lane`,
  ]),
);

/** Hooks found clean on their own facts (util/clean-hooks.ts). */
const clean: CleanHooks = cleanHooksBit();

export const observeMutation: Rule = {
  code: 'observe-mutation',
  engine: 'mantle',
  severity: 'warning',
  title: 'Observe hooks cannot change the payload',
  docs: {
    what: 'An observe hook (`on_*`) that writes to its payload parameter (assigning or deleting an attribute or item, calling a mutating method such as `append` or `update` on one of its fields) or returns a value other than `None`.',
    why: 'Observers receive an independent copy and are not awaited on the turn path; whatever they change or return is discarded. Code that looks like it redacts or rewrites does nothing. Use the modify lane for that.',
    spec: 'spec/mantle-hooks.md, Rejections and failures: "Observe hooks are always non-blocking: they receive independent copies, and their mutations, errors, timeouts, or control signals have no effect on the turn." Registration: "observe hooks take one typed payload and return `None`".',
    fix: "Move the change into the point's `modify_*` hook and return `payload.model_copy(update={...})` there, or drop it. End observe hooks with a bare `return` / `return None` (or no return).",
    example: {
      bad: `from rasa.mantle.hooks import ToolCallPayload, on_tool_call


@on_tool_call()
async def cap_limit(call: ToolCallPayload) -> None:
    call.arguments["limit"] = 10
`,
      good: `from rasa.mantle.hooks import ToolCallPayload, modify_tool_call


@modify_tool_call()
async def cap_limit(call: ToolCallPayload) -> ToolCallPayload:
    return call.model_copy(update={"arguments": {**call.arguments, "limit": 10}})
`,
    },
  },
  fixable: false,
  messages: {
    changesCopy:
      'Observe hook {{handler}}: {{what}} an independent copy of the payload; the change has no effect on the turn{{modify}}.',
    returnDiscarded:
      'Observe hook {{handler}} returns {{value}}, which the engine discards: observe hooks return None{{modify}}.',
  },
  check(ctx) {
    const out: HookDiagnostic[] = [];
    // Every fact read is the hook's own: its lane and point, its def's writes and returns.
    checkHooks(ctx.module, clean, (h) => {
      if (h.lane !== 'observe') return true;
      const before = out.length;
      const param = payloadParameter(h.fn);
      const modify = MODIFY_HINT.get(h.point) ?? '';
      if (param) {
        for (const w of h.fn.body.writes) {
          if (w.root !== param.name) continue;
          const target = [w.root, ...w.path].join('.');
          const what =
            w.kind === 'mutating-call'
              ? `${q(target + '.' + (w.method ?? '') + '(…)')} changes`
              : `this changes ${q(target)} of`;
          out.push(
            reportMessage(
              this,
              ctx,
              w.range,
              'changesCopy',
              { handler: q(h.fn.name), what, modify },
              { tags: ['unnecessary'] },
            ),
          );
        }
      }
      for (const r of h.fn.body.returns) {
        if (r.returnsNone || !r.value) continue;
        out.push(
          reportMessage(
            this,
            ctx,
            r.value.range,
            'returnDiscarded',
            { handler: q(h.fn.name), value: q(r.value.text), modify },
            { tags: ['unnecessary'] },
          ),
        );
      }
      return out.length === before;
    });
    return out;
  },
};
