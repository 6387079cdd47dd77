// duplicate-modify-hook: two modify hooks for one point across the agent's hook modules.
import { basename } from 'node:path';
import type { RelatedLocation } from './diagnostics';
import type { HookModule } from '../python/model';
import type { Rule } from './rule';
import { q, reportMessage } from './util/diagnostic';
import { modifyHooks, type MantleHook } from '../python/hooks';

interface Registration {
  module: HookModule;
  hook: MantleHook;
}

/**
 * Others named per report: each registration lists the others, so with every one named, n copies
 * of a hook (a generated or hostile module) would cost n² in messages and related locations.
 */
const MAX_OTHERS = 10;

function where(r: Registration): string {
  return `${basename(r.module.path)}:${r.hook.decorator.range.start.line + 1}`;
}

/** Up to MAX_OTHERS registrations other than `mine`, read from the front (not the whole list per report). */
function firstOthers(regs: Registration[], mine: Registration): Registration[] {
  const out: Registration[] = [];
  for (const r of regs) {
    if (out.length === MAX_OTHERS) break;
    if (r !== mine) out.push(r);
  }
  return out;
}

export const duplicateModifyHook: Rule = {
  code: 'duplicate-modify-hook',
  engine: 'mantle',
  severity: 'error',
  title: 'One modify hook per point',
  docs: {
    what: 'Two or more `modify_*` registrations of the same point anywhere in the agent (`hooks.py` and every `hooks/**/*.py` count together). Each registration is reported, with the others as related locations.',
    why: 'Modify hooks form a single chain link per point, so the engine refuses a second one: `rasa train` fails, and so does model load. Observe hooks are not limited.',
    spec: 'spec/mantle-hooks.md, Registration: "One modify hook per point. A second registration fails at train time and model load."',
    fix: 'Merge the modifiers into one function (call the helpers in sequence from a single `@modify_…()` hook), or turn the ones that only look at the payload into `on_…` observers.',
    example: {
      bad: `from rasa.mantle.hooks import ToolCallPayload, modify_tool_call


@modify_tool_call()
async def block_delete(call: ToolCallPayload) -> ToolCallPayload:
    if call.tool_name == "delete_account":
        return call.model_copy(update={"tool_name": "request_deletion"})
    return call


@modify_tool_call()
async def cap_limit(call: ToolCallPayload) -> ToolCallPayload:
    return call.model_copy(update={"arguments": {**call.arguments, "limit": 10}})
`,
      good: `from rasa.mantle.hooks import ToolCallPayload, modify_tool_call


def _block_delete(call: ToolCallPayload) -> ToolCallPayload:
    if call.tool_name == "delete_account":
        return call.model_copy(update={"tool_name": "request_deletion"})
    return call


def _cap_limit(call: ToolCallPayload) -> ToolCallPayload:
    return call.model_copy(update={"arguments": {**call.arguments, "limit": 10}})


@modify_tool_call()
async def guard(call: ToolCallPayload) -> ToolCallPayload:
    return _cap_limit(_block_delete(call))
`,
    },
  },
  fixable: false,
  messages: {
    registeredTwice:
      '{{point}} is registered {{count}} times in this agent ({{handler}} here; also {{others}}). One modify hook per point: a second registration fails rasa train and model load.',
  },
  check(ctx) {
    // Only this module's modify hooks are reported: most modules have none, and then the
    // siblings need not be looked at (an agent's check stays linear in its module count).
    if (modifyHooks(ctx.module).length === 0) return [];
    // Match this module by path: the agent list may hold an older build of the same file.
    const modules = [ctx.module, ...ctx.agentModules.filter((m) => m.path !== ctx.module.path)];
    const byPoint = new Map<string, Registration[]>();
    for (const module of modules) {
      for (const hook of modifyHooks(module)) {
        const list = byPoint.get(hook.point.id) ?? [];
        list.push({ module, hook });
        byPoint.set(hook.point.id, list);
      }
    }
    const out = [];
    for (const regs of byPoint.values()) {
      if (regs.length < 2) continue;
      for (const mine of regs.filter((r) => r.module === ctx.module)) {
        const others = firstOthers(regs, mine);
        const more = regs.length - 1 - others.length;
        const related: RelatedLocation[] = others.map((o) => ({
          file: o.module.path,
          range: o.hook.decorator.range,
          message: `also ${q('@' + o.hook.hook.name + '()')}: ${q(o.hook.fn.name)}`,
        }));
        out.push(
          reportMessage(
            this,
            ctx,
            mine.hook.decorator.range,
            'registeredTwice',
            {
              point: q(mine.hook.hook.name),
              count: String(regs.length),
              handler: q(mine.hook.fn.name),
              others: `${others.map((o) => `${q(o.hook.fn.name)} at ${where(o)}`).join(', ')}${more > 0 ? ` and ${more} more` : ''}`,
            },
            { related },
          ),
        );
      }
    }
    return out;
  },
};
