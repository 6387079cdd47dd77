// model-settings-key: a model_settings override the engine ignores (key or value type).
import { MODEL_SETTINGS, acceptsValue, findModelSetting, type SettingValueType } from '../catalogue';
import type { HookDiagnostic } from './diagnostics';
import type { LiteralValue } from '../python/model';
import type { Rule } from './rule';
import { andList, fix, q, reportMessage } from './util/diagnostic';
import { nearest } from './util/edit-distance';
import { mantleHooks, payloadParameter } from '../python/hooks';
import { splitLines } from '../python/text';

const FIELD = 'model_settings';
const EXPECTED: Record<SettingValueType, string> = {
  number: 'a number',
  integer: 'an integer',
  'string-or-string-list': 'a string or a list of strings',
};
const ALLOWED = andList(MODEL_SETTINGS.map((s) => q(s.key)));

/** The JSON value of a literal, or undefined when it is not a literal we can judge. */
function jsonOf(v: LiteralValue): unknown {
  switch (v.kind) {
    case 'number':
      return v.value;
    case 'string':
      return v.value;
    case 'bool':
      return v.value;
    case 'none':
      return null;
    case 'list': {
      const items = v.items.map(jsonOf);
      return items.some((i) => i === undefined) ? undefined : items;
    }
    default:
      return undefined;
  }
}

function describeValue(v: LiteralValue): string {
  switch (v.kind) {
    case 'number':
      return v.isInteger ? 'an integer' : 'a float';
    case 'bool':
      return 'a bool';
    case 'none':
      return 'None';
    case 'string':
      return 'a string';
    case 'list':
      return 'a list';
    case 'dict':
      return 'a dict';
    default:
      return v.text;
  }
}

export const modelSettingsKey: Rule = {
  code: 'model-settings-key',
  engine: 'mantle',
  severity: 'warning',
  title: 'model_settings override outside the allow-list or of the wrong type',
  docs: {
    what: `In a \`modify_model_request\` hook, a \`model_settings\` entry of a \`model_copy(update={...})\` whose key is not allow-listed (${MODEL_SETTINGS.map((s) => s.key).join(', ')}) or whose literal value has the wrong type (numbers for the float/int keys, an integer for \`max_tokens\` and \`seed\`, a string or list of strings for \`stop\`).`,
    why: 'The engine drops anything outside the allow-list — including API keys, the provider and the model name — and values of the wrong type, without an error: the override silently does nothing.',
    spec: 'spec/mantle-hooks.md, modify_model_request: "You can change these `model_settings` keys: `temperature`, `top_p`, `max_tokens`, `presence_penalty`, `frequency_penalty`, `stop`, and `seed`. Values must match provider-safe types (numbers for the float/int keys; a string or list of strings for `stop`). Anything else is ignored — including API keys, the provider, and the model name."',
    fix: 'Use an allow-listed key with a value of its type, e.g. `"model_settings": {"temperature": 0.2, "max_tokens": 256}`. The quick fix renames a misspelt key to the closest allowed one.',
    example: {
      bad: `from rasa.mantle.hooks import ModelRequestPayload, modify_model_request


@modify_model_request()
async def cool(request: ModelRequestPayload) -> ModelRequestPayload:
    return request.model_copy(update={"model_settings": {"temprature": 0.2}})
`,
      good: `from rasa.mantle.hooks import ModelRequestPayload, modify_model_request


@modify_model_request()
async def cool(request: ModelRequestPayload) -> ModelRequestPayload:
    return request.model_copy(update={"model_settings": {"temperature": 0.2}})
`,
    },
  },
  fixable: true,
  messages: {
    notAllowed: '{{key}} is not an allow-listed model setting; the engine ignores it. Allowed: {{allowed}}.',
    notAllowedDidYouMean:
      '{{key}} is not an allow-listed model setting (did you mean {{suggestion}}?); the engine ignores it. Allowed: {{allowed}}.',
    wrongValueType:
      '{{key}} gets {{value}}, but the engine only accepts {{expected}} for it; the value is ignored.',
  },
  check(ctx) {
    const out: HookDiagnostic[] = [];
    for (const h of mantleHooks(ctx.module)) {
      if (h.lane !== 'modify' || h.point.id !== 'model_request') continue;
      const param = payloadParameter(h.fn);
      for (const copy of h.fn.body.modelCopies) {
        if (param && copy.receiver !== param.name) continue;
        const settings = copy.updateEntries?.find((e) => e.key === FIELD);
        if (settings?.value.kind !== 'dict') continue;
        for (const entry of settings.value.entries) {
          if (entry.key === undefined) continue;
          const setting = findModelSetting(entry.key);
          if (!setting) {
            const suggestion = nearest(
              entry.key,
              MODEL_SETTINGS.map((s) => s.key),
            );
            const quoteChar =
              splitLines(ctx.text)[entry.keyRange.start.line]?.[entry.keyRange.start.character] ?? '"';
            out.push(
              reportMessage(
                this,
                ctx,
                entry.keyRange,
                suggestion ? 'notAllowedDidYouMean' : 'notAllowed',
                { key: q(entry.key), allowed: ALLOWED, ...(suggestion ? { suggestion: q(suggestion) } : {}) },
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
            continue;
          }
          const value = jsonOf(entry.value);
          if (value === undefined) continue; // not a literal: unknown at analysis time
          // A float literal such as 256.0 is still a float in Python: wrong for an integer key.
          const floatForInt =
            setting.valueType === 'integer' && entry.value.kind === 'number' && !entry.value.isInteger;
          if (acceptsValue(setting, value) && !floatForInt) continue;
          out.push(
            reportMessage(this, ctx, entry.valueRange, 'wrongValueType', {
              key: q(entry.key),
              value: describeValue(entry.value),
              expected: EXPECTED[setting.valueType],
            }),
          );
        }
      }
    }
    return out;
  },
};
