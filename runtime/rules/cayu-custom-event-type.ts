// cayu-custom-event-type: `emit_custom_event` with a literal type that the engine's
// validate_public_custom_event_type rejects (catalogue: CAYU_CUSTOM_EVENT_TYPE).
import { CAYU_CUSTOM_EVENT_TYPE } from '../catalogue';
import type { Fix, HookDiagnostic } from './diagnostics';
import { cayuHookClasses } from '../python/hooks';
import type { CallFacts, Range } from '../python/model';
import type { Rule } from './rule';
import { fix, q, reportMessage } from './util/diagnostic';

const CODE = 'cayu-custom-event-type';
const METHOD = 'emit_custom_event';
const { pattern, reservedPrefix } = CAYU_CUSTOM_EVENT_TYPE;

/** Why the engine rejects this type; undefined when it accepts it. */
export function customEventTypeProblem(type: string): string | undefined {
  if (!pattern.test(type))
    return `is outside the ${q('custom.')} namespace or has an empty or invalid segment (${CAYU_CUSTOM_EVENT_TYPE.patternText})`;
  if (type.startsWith(reservedPrefix))
    return `is in the ${q(reservedPrefix)} namespace, reserved for cayu internals`;
  return undefined;
}

/**
 * The event type argument: the first positional or `event_type=`, when a string literal or a
 * module-level name bound once to one (`constant`: that name; the quick fix is then left out).
 */
function eventTypeArgument(
  call: CallFacts,
  constants: Record<string, string> = {},
): { value: string; range: Range; constant?: string } | undefined {
  const keyword = call.keywords.find((k) => k.name === 'event_type');
  const arg = call.positional[0] ?? (keyword && { value: keyword.value, range: keyword.valueRange });
  if (arg?.value.kind === 'string') return { value: arg.value.value, range: arg.range };
  const name = arg?.value.kind === 'other' ? arg.value.text : undefined;
  return name !== undefined && Object.hasOwn(constants, name)
    ? { value: constants[name]!, range: arg!.range, constant: name }
    : undefined;
}

/** `"order_placed"` → `"custom.order_placed"` when that is valid. */
function prefixFix(type: string, range: Range): Fix[] {
  const fixed = `custom.${type}`;
  return type.startsWith('custom') || customEventTypeProblem(fixed)
    ? []
    : [fix(`Use "${fixed}"`, [{ range, newText: JSON.stringify(fixed) }], true)];
}

export const cayuCustomEventType: Rule = {
  code: CODE,
  engine: 'cayu',
  severity: 'error',
  title: '`emit_custom_event` with a reserved or malformed event type',
  docs: {
    what: `In a \`RuntimeHook\` subclass, \`….${METHOD}("type", …)\` whose type (a literal, or a module-level name bound once to one) the engine refuses: not \`custom.\` followed by non-empty dot-separated segments of letters, digits, \`_\` and \`-\` (\`"order_placed"\`, \`"custom."\`, \`"custom..x"\`, \`"custom.a b"\`), or in the reserved \`custom.cayu.\` namespace.`,
    why: `\`${METHOD}\` validates the type first (\`validate_public_custom_event_type\`, ${CAYU_CUSTOM_EVENT_TYPE.source}) and raises ValueError: the event is never emitted and the hook fails there (the runtime records the failure and goes on without the rest of the hook).`,
    spec: 'spec/cayu-runtime-hooks.md, context methods: "async BeforeToolCallHookContext.emit_custom_event(event_type: str, *, session_id: str | None=None, payload: dict[str, Any] | None=None) -> Event"; DESIGN.md: "a hook that raises an `Exception` … is recorded as failed and the loop goes on".',
    fix: 'Name the event `custom.<your namespace>.<event>`, outside `custom.cayu.`. The quick fix prefixes a bare name with `custom.`.',
    example: {
      bad: `from cayu.observability import RuntimeHook, ToolCallHookContext


class Audit(RuntimeHook):
    async def after_tool_call(self, context: ToolCallHookContext) -> None:
        await context.emit_custom_event("tool_seen", payload={"tool": context.tool_name})
        return None
`,
      good: `from cayu.observability import RuntimeHook, ToolCallHookContext


class Audit(RuntimeHook):
    async def after_tool_call(self, context: ToolCallHookContext) -> None:
        await context.emit_custom_event("custom.tool_seen", payload={"tool": context.tool_name})
        return None
`,
      file: 'runtime_hooks.py',
    },
  },
  fixable: true,
  messages: {
    invalidEventType:
      'Custom event type {{type}}{{constant}} {{why}}: {{method}} raises ValueError and the hook fails there.',
  },
  check(ctx) {
    const out: HookDiagnostic[] = [];
    for (const { cls } of cayuHookClasses(ctx.module)) {
      for (const m of cls.methods) {
        for (const call of m.body.calls) {
          if (call.expectedFailure || !call.callee.text.endsWith(`.${METHOD}`)) continue;
          const arg = eventTypeArgument(call, ctx.module.stringConstants);
          const why = arg && customEventTypeProblem(arg.value);
          if (!arg || !why) continue;
          const what = arg.constant ? ` (the value of ${q(arg.constant)})` : '';
          out.push(
            reportMessage(
              this,
              ctx,
              arg.range,
              'invalidEventType',
              { type: q(arg.value), constant: what, why, method: METHOD },
              { fixes: arg.constant ? [] : prefixFix(arg.value, arg.range) },
            ),
          );
        }
      }
    }
    return out;
  },
};
