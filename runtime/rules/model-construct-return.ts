// model-construct-return: a modify hook returning `SomePayload.model_construct(...)`. Pydantic's
// model_construct skips validation and leaves every field it is not given unset; the runner only
// checks `isinstance(result, type(payload))` (rasa-pro 3.21 rasa/mantle/hooks/runner.py:360-366)
// and copies identity back with model_copy, which does not validate either (runner.py:84-92).
import type { HookDiagnostic, TextEdit } from './diagnostics';
import { modifyHooks, payloadParameter } from '../python/hooks';
import type { CallFacts, FunctionDef, ReturnFacts } from '../python/model';
import type { Rule } from './rule';
import { fix, q, reportMessage } from './util/diagnostic';
import { boundOnlyTo } from './util/aliases';

const CODE = 'model-construct-return';
const METHOD = 'model_construct';

/** The returned `X.model_construct(...)` call, directly or through a name bound only to one. */
function constructed(r: ReturnFacts, fn: FunctionDef): { call?: CallFacts; callee: string } | undefined {
  const v = r.value;
  if (!v) return undefined;
  if (v.call?.callee.text.endsWith(`.${METHOD}`)) return { call: v.call, callee: v.call.callee.text };
  if (v.nodeType !== 'identifier') return undefined;
  const only = boundOnlyTo(fn.body, v.text, (b) => b.callee?.endsWith(`.${METHOD}`) === true);
  return only ? { callee: only[0]!.value!.callee! } : undefined;
}

/** `X.model_construct(a=1)` → `payload.model_copy(update={"a": 1})`, when every argument is a keyword. */
function copyFix(
  call: CallFacts | undefined,
  param: string | undefined,
  text: string,
): TextEdit[] | undefined {
  if (!call || !param || call.hasStarArgs || call.positional.length) return undefined;
  const lines = text.split('\n');
  const slice = (r: CallFacts['range']) =>
    r.start.line === r.end.line
      ? (lines[r.start.line] ?? '').slice(r.start.character, r.end.character)
      : undefined;
  const entries = call.keywords.map((k) => {
    const value = slice(k.valueRange);
    return value === undefined ? undefined : `${JSON.stringify(k.name)}: ${value}`;
  });
  if (entries.some((e) => e === undefined)) return undefined;
  return [{ range: call.range, newText: `${param}.model_copy(update={${entries.join(', ')}})` }];
}

export const modelConstructReturn: Rule = {
  code: CODE,
  engine: 'mantle',
  severity: 'warning',
  title: 'A modify hook returns `Payload.model_construct(...)`: no validation',
  docs: {
    what: 'A `modify_*` hook whose return value is `SomePayload.model_construct(...)` (also `type(payload).model_construct(...)`), directly or through a local name bound only to such a call.',
    why: '`model_construct` builds the model without validation and leaves every field it is not given unset. The rasa-pro 3.21 runner accepts it: it checks only `isinstance(result, type(payload))` (rasa/mantle/hooks/runner.py:360-366) and restores identity with `model_copy`, which does not validate (runner.py:84-92). So the engine does not reject the hook (hence a warning, not an error), but what reaches the turn is unchecked: run through the real runner, `ToolResultPayload.model_construct(value={"a": 1})` comes back with outcome `success`, a dict where the engine expects JSON text, and no `tool_name` at all (reading it raises AttributeError later in the turn, outside the hook\'s fail policy).',
    spec: 'spec/mantle-hooks.md, Payload wall: "Use `payload.model_copy(update={...})` to produce modify-hook return values"; Signatures: "modify hooks take one typed payload and return the same type."',
    fix: 'Return `payload.model_copy(update={...})`: it starts from the payload the engine sent, so every field is present. The quick fix rewrites an all-keyword `model_construct(...)` call that way.',
    example: {
      bad: `from rasa.mantle.hooks import OutgoingTextPayload, modify_outgoing_text


@modify_outgoing_text()
async def tidy(message: OutgoingTextPayload) -> OutgoingTextPayload:
    return OutgoingTextPayload.model_construct(text=message.text.strip())
`,
      good: `from rasa.mantle.hooks import OutgoingTextPayload, modify_outgoing_text


@modify_outgoing_text()
async def tidy(message: OutgoingTextPayload) -> OutgoingTextPayload:
    return message.model_copy(update={"text": message.text.strip()})
`,
    },
  },
  fixable: true,
  messages: {
    skipsValidation:
      '{{call}} skips validation and leaves unset fields missing; the engine accepts it unchecked. Return {{instead}} instead.',
  },
  check(ctx) {
    const out: HookDiagnostic[] = [];
    const seen = new Set<FunctionDef>(); // a def under two modify decorators is reported once
    for (const h of modifyHooks(ctx.module)) {
      if (seen.has(h.fn)) continue;
      seen.add(h.fn);
      const param = payloadParameter(h.fn)?.name;
      for (const r of h.fn.body.returns) {
        const found = constructed(r, h.fn);
        if (!found || !r.value) continue;
        const edits = copyFix(found.call, param, ctx.text);
        out.push(
          reportMessage(
            this,
            ctx,
            r.value.range,
            'skipsValidation',
            {
              call: q(found.callee + '(...)'),
              instead: q((param ?? 'payload') + '.model_copy(update={...})'),
            },
            { fixes: edits ? [fix(`Use ${param}.model_copy(update=...)`, edits)] : [] },
          ),
        );
      }
    }
    return out;
  },
};
