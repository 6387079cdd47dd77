// invalid-timeout: decorator options other than a positive integer `timeout_ms=`.
import { DEFAULT_TIMEOUT_MS } from '../catalogue';
import type { Decorator, KeywordArgument, LiteralValue } from '../python/model';
import type { HookDiagnostic } from './diagnostics';
import type { Rule, RuleContext } from './rule';
import { fix, q, reportMessage } from './util/diagnostic';
import { nearest } from './util/edit-distance';
import { checkHooks, cleanHooksBit, type CleanHooks } from './util/clean-hooks';

const OPTION = 'timeout_ms';

/** Why a literal is not a valid timeout, or undefined when it is valid (or not a literal we can judge). */
function problem(value: LiteralValue): string | undefined {
  switch (value.kind) {
    case 'number':
      if (!value.isInteger) return `${value.value} is not an integer number of milliseconds`;
      if (value.value <= 0) return `${value.value} is not a positive number of milliseconds`;
      return undefined;
    case 'bool':
      return `${value.value ? 'True' : 'False'} is a bool, not a number of milliseconds`;
    case 'none':
      return 'None is not a number of milliseconds (omit the option to get the default)';
    case 'string':
      return `a string is not a number of milliseconds`;
    case 'list':
    case 'dict':
      return `a ${value.kind} is not a number of milliseconds`;
    case 'other':
      return undefined; // a name or an expression: its value is not known statically
  }
}

/** Hooks found clean on their own facts (util/clean-hooks.ts). */
const clean: CleanHooks = cleanHooksBit();

export const invalidTimeout: Rule = {
  code: 'invalid-timeout',
  engine: 'mantle',
  severity: 'error',
  title: 'Invalid hook decorator options',
  docs: {
    what: 'A hook decorator whose options are not valid: `timeout_ms` that is not a positive integer literal (0, a negative number, a float such as `1.5`, a string, a bool, `None`), a keyword other than `timeout_ms` (e.g. `timeout=`), or a positional argument. A `timeout_ms` given by a name or an expression is not judged.',
    why: 'The decorators accept one option, `timeout_ms`, an integer number of milliseconds. Hooksmith treats anything else as an error: an argument the decorator does not accept makes the module fail to load (failing `rasa train`), and a zero, negative, fractional or non-numeric timeout is not a budget the engine can enforce.',
    spec: 'spec/mantle-hooks.md, Timeouts: "Override per hook: `@modify_model_request(timeout_ms=2000)`." Defaults: observe 100 ms, modify 500 ms.',
    fix: 'Write `timeout_ms=<positive integer>`, e.g. `@modify_model_request(timeout_ms=2000)`, or drop the argument for the default. The quick fix renames a misspelt keyword (`timeout=` → `timeout_ms=`) and rounds a float up to whole milliseconds.',
    example: {
      bad: `from rasa.mantle.hooks import ModelRequestPayload, modify_model_request


@modify_model_request(timeout=2000)
async def tune(request: ModelRequestPayload) -> ModelRequestPayload:
    return request
`,
      good: `from rasa.mantle.hooks import ModelRequestPayload, modify_model_request


@modify_model_request(timeout_ms=2000)
async def tune(request: ModelRequestPayload) -> ModelRequestPayload:
    return request
`,
    },
  },
  fixable: true,
  messages: {
    positional:
      '{{decorator}} takes no positional argument; its only option is {{option}} (a positive integer, default {{default}} ms for {{lane}} hooks).',
    unknownOption:
      '{{decorator}} has no option {{name}}; its only option is {{option}}. The decorator does not accept other arguments, so the module fails to load.',
    unknownOptionDidYouMean:
      '{{decorator}} has no option {{name}}; did you mean {{option}}? The decorator does not accept other arguments, so the module fails to load.',
    notPositiveInteger: '{{option}} must be a positive integer number of milliseconds: {{why}}.',
  },
  check(ctx) {
    const out: HookDiagnostic[] = [];
    // Every fact read is the hook's own: its decorator's arguments.
    checkHooks(ctx.module, clean, (h) => {
      const call = h.decorator.call;
      if (!call || (call.positional.length === 0 && call.keywords.length === 0)) return true;
      const before = out.length;
      for (const p of call.positional) {
        out.push(
          reportMessage(this, ctx, p.range, 'positional', {
            decorator: decoratorText(h.decorator),
            option: q(OPTION + '='),
            default: String(DEFAULT_TIMEOUT_MS[h.lane]),
            lane: h.lane,
          }),
        );
      }
      for (const kw of call.keywords) {
        const d = checkKeyword(this, ctx, h.decorator, kw);
        if (d) out.push(d);
      }
      return out.length === before;
    });
    return out;
  },
};

/** `@on_tool_call()` as written, for messages (built only when there is something to report). */
function decoratorText(d: Decorator): string {
  return q('@' + d.ref.text + '()');
}

function checkKeyword(
  rule: Rule,
  ctx: RuleContext,
  decorator: Decorator,
  kw: KeywordArgument,
): HookDiagnostic | undefined {
  if (kw.name !== OPTION) {
    const name = decoratorText(decorator);
    const suggestion = nearest(kw.name, [OPTION]) ?? (/timeout/i.test(kw.name) ? OPTION : undefined);
    return reportMessage(
      rule,
      ctx,
      kw.nameRange,
      suggestion ? 'unknownOptionDidYouMean' : 'unknownOption',
      { decorator: name, name: q(kw.name), option: q(OPTION) },
      {
        fixes: suggestion
          ? [fix(`Rename to ${OPTION}`, [{ range: kw.nameRange, newText: OPTION }], true)]
          : [],
      },
    );
  }
  const why = problem(kw.value);
  if (!why) return undefined;
  const fixes =
    kw.value.kind === 'number' && !kw.value.isInteger && kw.value.value > 0
      ? [
          fix(
            `Use ${Math.ceil(kw.value.value)}`,
            [{ range: kw.valueRange, newText: String(Math.ceil(kw.value.value)) }],
            true,
          ),
        ]
      : [];
  return reportMessage(rule, ctx, kw.valueRange, 'notPositiveInteger', { option: q(OPTION), why }, { fixes });
}
