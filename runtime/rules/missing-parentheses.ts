// missing-parentheses: `@on_turn_started` written without its call parentheses.
import type { Rule } from './rule';
import { fix, q, reportMessage } from './util/diagnostic';
import { mantleHooks } from '../python/hooks';

export const missingParentheses: Rule = {
  code: 'missing-parentheses',
  engine: 'mantle',
  severity: 'error',
  title: 'Hook decorators need parentheses',
  docs: {
    what: 'A Mantle hook decorator used bare, e.g. `@on_turn_started` instead of `@on_turn_started()`.',
    why: 'Every hook decorator is a factory that takes options (`timeout_ms`) and returns the real decorator. Used bare, the factory receives the function in place of its options, so the hook is not registered as written; the engine requires the call form even with default options.',
    spec: 'spec/mantle-hooks.md, Registration: "Parentheses are **mandatory**, even when you only use defaults".',
    fix: 'Add `()`: `@on_turn_started()` (the quick fix does it).',
    example: {
      bad: `from rasa.mantle.hooks import TurnStartedPayload, on_turn_started


@on_turn_started
async def started(payload: TurnStartedPayload) -> None:
    return None
`,
      good: `from rasa.mantle.hooks import TurnStartedPayload, on_turn_started


@on_turn_started()
async def started(payload: TurnStartedPayload) -> None:
    return None
`,
    },
  },
  fixable: true,
  messages: {
    needsParentheses:
      '{{decorator}} needs parentheses: write {{called}}. Hook decorators are factories; parentheses are mandatory even with default options.',
  },
  check(ctx) {
    return mantleHooks(ctx.module)
      .filter((h) => !h.decorator.called)
      .map((h) => {
        const end = h.decorator.ref.range.end;
        return reportMessage(
          this,
          ctx,
          h.decorator.range,
          'needsParentheses',
          { decorator: q('@' + h.decorator.ref.text), called: q('@' + h.decorator.ref.text + '()') },
          { fixes: [fix('Add `()`', [{ range: { start: end, end }, newText: '()' }], true)] },
        );
      });
  },
};
