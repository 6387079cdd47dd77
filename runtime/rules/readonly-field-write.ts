// readonly-field-write: a modify hook changing a field the engine owns or ignores.
import {
  PAYLOAD_TYPES,
  allFields,
  mutableFieldNames,
  type PayloadField,
  type PayloadType,
} from '../catalogue';
import type { HookDiagnostic } from './diagnostics';
import type { Rule } from './rule';
import { andList, fix, q, reportMessage } from './util/diagnostic';
import { nearest } from './util/edit-distance';
import { mantleHooks, payloadParameter } from '../python/hooks';
import { splitLines } from '../python/text';

/** Each payload type's fields by name (its own first, so an own field wins over an identity one), built once. */
const FIELDS = new Map(
  PAYLOAD_TYPES.map((t) => [t, new Map([...allFields(t)].reverse().map((f) => [f.name, f]))]),
);

function fieldOf(type: PayloadType, name: string): PayloadField | undefined {
  const byName = FIELDS.get(type);
  return byName ? byName.get(name) : allFields(type).find((f) => f.name === name);
}

/** What the engine does with a change to a non-mutable field. */
function consequence(field: PayloadField): string {
  if (field.mutability === 'identity')
    return 'it is engine-owned identity: the runner restores it from the original input, so the change is lost';
  if (field.name === 'tool_names')
    return 'it is a read-only view: hooks cannot change which tools the LLM is offered';
  return 'it is read-only: the engine does not take the change';
}

function mutableList(type: PayloadType): string {
  const names = mutableFieldNames(type);
  return names.length ? `its mutable fields are ${andList(names.map(q))}` : 'it has no mutable field';
}

export const readonlyFieldWrite: Rule = {
  code: 'readonly-field-write',
  engine: 'mantle',
  severity: 'warning',
  title: 'Write to a read-only, engine-owned or unknown payload field',
  docs: {
    what: 'In a modify hook: a `payload.model_copy(update={...})` key, or an assignment / in-place change on the payload parameter (`payload.tool_names.append(...)`, `payload.sender_id = ...`), that targets a field which is not mutable for this payload type — identity fields (`sender_id`, `call`, `channel`), `tool_names`, `iteration`, `latency_ms`, `tool_name` on a tool result, `query` on knowledge results — or that is no field of the payload at all.',
    why: 'The engine restores identity from the original input and ignores read-only fields, so the hook silently does not do what it says. Unknown keys are worse: Pydantic\'s `model_copy(update=...)` does not validate, so a typo such as `"txt"` adds a stray attribute and the real field keeps its old value (and assigning an unknown attribute raises, which triggers the fail policy).',
    spec: 'spec/mantle-hooks.md, Payload wall: "The runner copies the payload before calling a modify hook and restores engine-owned identity from the original input even when a modify hook returns different values for those fields." modify_model_request: "`tool_names` | no | Read-only view of offered tool names"; "Hooks also cannot change which tools the LLM is offered."',
    fix: "Change only the mutable fields listed in the payload's table. For an unknown key the quick fix renames it to the closest mutable field.",
    example: {
      bad: `from rasa.mantle.hooks import ModelRequestPayload, modify_model_request


@modify_model_request()
async def fewer_tools(request: ModelRequestPayload) -> ModelRequestPayload:
    return request.model_copy(update={"tool_names": ["search"]})
`,
      good: `from rasa.mantle.hooks import ModelRequestPayload, modify_model_request


@modify_model_request()
async def short_history(request: ModelRequestPayload) -> ModelRequestPayload:
    return request.model_copy(update={"messages": request.messages[-20:]})
`,
    },
  },
  fixable: true,
  messages: {
    unknownUpdateKey:
      '{{key}} is not a field of {{payload}}; model_copy does not validate update keys, so this is silently ignored — {{mutable}}.',
    misspeltUpdateKey:
      '{{key}} is not a field of {{payload}} (did you mean {{suggestion}}?); model_copy does not validate update keys, so this is silently ignored — {{mutable}}.',
    readonlyUpdateKey: '{{decorator}} cannot change {{field}}: {{consequence}}. {{mutable}}.',
    unknownAttribute:
      "{{field}} is not a field of {{payload}}; assigning it raises (Pydantic models reject unknown attributes), which triggers the point's fail policy ({{effect}}).",
    readonlyWrite: '{{decorator}} cannot change {{field}}: {{consequence}}.',
  },
  check(ctx) {
    const out: HookDiagnostic[] = [];
    for (const h of mantleHooks(ctx.module)) {
      if (h.lane !== 'modify') continue;
      const param = payloadParameter(h.fn);
      if (!param) continue;
      for (const copy of h.fn.body.modelCopies) {
        if (copy.receiver !== param.name) continue;
        for (const entry of copy.updateEntries ?? []) {
          if (entry.key === undefined) continue;
          const field = fieldOf(h.payload, entry.key);
          if (!field) {
            const suggestion = nearest(entry.key, mutableFieldNames(h.payload));
            const quoteChar =
              splitLines(ctx.text)[entry.keyRange.start.line]?.[entry.keyRange.start.character] ?? '"';
            out.push(
              reportMessage(
                this,
                ctx,
                entry.keyRange,
                suggestion ? 'misspeltUpdateKey' : 'unknownUpdateKey',
                {
                  key: q(entry.key),
                  payload: q(h.payload.name),
                  ...(suggestion ? { suggestion: q(suggestion) } : {}),
                  mutable: mutableList(h.payload),
                },
                {
                  fixes: suggestion
                    ? [
                        fix(
                          `Rename to "${suggestion}"`,
                          [{ range: entry.keyRange, newText: `${quoteChar}${suggestion}${quoteChar}` }],
                          true,
                        ),
                      ]
                    : [],
                },
              ),
            );
          } else if (field.mutability !== 'mutable') {
            out.push(
              reportMessage(this, ctx, entry.keyRange, 'readonlyUpdateKey', {
                decorator: q(h.hook.name),
                field: q(entry.key),
                consequence: consequence(field),
                mutable: capitalise(mutableList(h.payload)),
              }),
            );
          }
        }
      }
      for (const w of h.fn.body.writes) {
        if (w.root !== param.name || w.path.length === 0) continue;
        const name = w.path[0];
        const field = fieldOf(h.payload, name);
        if (!field) {
          if (w.kind === 'assign' || w.kind === 'augmented-assign') {
            out.push(
              reportMessage(this, ctx, w.range, 'unknownAttribute', {
                field: q(name),
                payload: q(h.payload.name),
                effect: h.point.failEffect ?? 'no modify lane',
              }),
            );
          }
        } else if (field.mutability !== 'mutable') {
          out.push(
            reportMessage(this, ctx, w.range, 'readonlyWrite', {
              decorator: q(h.hook.name),
              field: q(name),
              consequence: consequence(field),
            }),
          );
        }
      }
    }
    return out;
  },
};

function capitalise(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}
