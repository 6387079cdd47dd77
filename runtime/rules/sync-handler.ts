// sync-handler: a Mantle hook declared with `def` instead of `async def`.
import type { Rule } from './rule';
import { fix, q, reportMessage } from './util/diagnostic';
import { mantleHooks } from '../python/hooks';

export const syncHandler: Rule = {
  code: 'sync-handler',
  engine: 'mantle',
  severity: 'error',
  title: 'Hooks must be `async def`',
  docs: {
    what: 'A function registered with a Mantle hook decorator that is a plain `def`.',
    why: 'The engine awaits every hook (modify) or schedules it as a task (observe); it rejects synchronous handlers when it validates hook modules at `rasa train` and model load.',
    spec: 'spec/mantle-hooks.md, Registration: "Always `async def`. Synchronous handlers are rejected at validation."',
    fix: 'Write `async def` (the quick fix inserts `async `). Inside, await asynchronous APIs instead of blocking calls.',
    example: {
      bad: `from rasa.mantle.hooks import TurnFinishedPayload, on_turn_finished


@on_turn_finished()
def finished(payload: TurnFinishedPayload) -> None:
    return None
`,
      good: `from rasa.mantle.hooks import TurnFinishedPayload, on_turn_finished


@on_turn_finished()
async def finished(payload: TurnFinishedPayload) -> None:
    return None
`,
    },
  },
  fixable: true,
  messages: {
    notAsync:
      '{{name}} is registered with {{decorator}} but is not `async def`: the engine rejects synchronous hook handlers at validation (rasa train and model load).',
  },
  check(ctx) {
    return mantleHooks(ctx.module)
      .filter((h) => !h.fn.isAsync)
      .map((h) =>
        reportMessage(
          this,
          ctx,
          h.fn.nameRange,
          'notAsync',
          { name: q(h.fn.name), decorator: q('@' + h.hook.name + '()') },
          {
            fixes: [
              fix(
                'Make the hook `async def`',
                [
                  {
                    range: { start: h.fn.defKeywordRange.start, end: h.fn.defKeywordRange.start },
                    newText: 'async ',
                  },
                ],
                true,
              ),
            ],
          },
        ),
      );
  },
};
