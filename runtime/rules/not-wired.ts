// not-wired: a hook on a point the engine accepts but does not invoke yet.
import type { Rule } from './rule';
import { MANTLE_POINTS } from '../catalogue';
import { andList, q, reportMessage } from './util/diagnostic';
import { mantleHooks } from '../python/hooks';
import { CATALOGUE_RASA_PRO, notInvokedBy, pointWired } from '../catalogue/wiring';

/** "every point" on 3.21, else the points it leaves out. */
function unwiredWords(): string {
  const unwired = MANTLE_POINTS.filter((p) => !p.wired).map((p) => p.title);
  return unwired.length ? `every point but ${andList(unwired)}` : 'every point';
}

export const notWired: Rule = {
  code: 'not-wired',
  engine: 'mantle',
  severity: 'information',
  title: 'The engine does not invoke this point yet',
  docs: {
    what: `A hook on an insertion point that the engine validates and packages but never calls. rasa-pro ${CATALOGUE_RASA_PRO} calls ${unwiredWords()}; the rule fires where the hooksmith.mantle.wiredPoints setting (or --wired-points) leaves a point out, e.g. for an engine build that does not dispatch it.`,
    why: 'The hook is valid, so nothing else warns, yet it never runs: a redaction or veto written there has no effect on real conversations until the point is wired.',
    spec: 'spec/mantle-hooks.md, Hooks: "Other catalogue points can be authored, validated, and packaged, but are not invoked yet." The spec\'s table marks incoming message and outgoing text "not wired", but the installed rasa-pro 3.21.0 calls both (rasa/mantle/processor.py:200 apply_incoming_message_hooks, rasa/mantle/orchestration/turn_context.py:417 apply_outgoing_text_hooks; runtime/catalogue/engine-lines/rasa-pro-3.21.json): the engine decides.',
    fix: 'Which points are invoked follows the installed `rasa-pro` (read from the selected interpreter; a release newer than 3.21 invokes every point); the setting `hooksmith.mantle.wiredPoints` overrides it. Nothing to fix in the hook. If the behaviour is needed today, move it to a wired point (e.g. rewrite the answer in `modify_model_response` instead of `modify_outgoing_text`).',
    example: {
      bad: `from rasa.mantle.hooks import OutgoingTextPayload, modify_outgoing_text


@modify_outgoing_text()
async def sign(outgoing: OutgoingTextPayload) -> OutgoingTextPayload:
    return outgoing.model_copy(update={"text": outgoing.text + " (Acme support)"})
`,
      good: `from rasa.mantle.hooks import ModelResponsePayload, modify_model_response


@modify_model_response()
async def sign(response: ModelResponsePayload) -> ModelResponsePayload:
    if response.tool_calls or not response.text:
        return response
    return response.model_copy(update={"text": response.text + " (Acme support)"})
`,
    },
  },
  fixable: false,
  messages: {
    notInvoked:
      "{{decorator}} is valid, but {{point}} hooks are {{notInvoked}}: {{handler}} will not run in real conversations (it does run in Hooksmith's simulator, labelled not wired).",
  },
  check(ctx) {
    return mantleHooks(ctx.module).flatMap((h) => {
      const { wired, by } = pointWired(h.point, ctx.environment);
      if (wired) return [];
      return [
        reportMessage(this, ctx, h.decorator.range, 'notInvoked', {
          decorator: q(h.hook.name),
          point: h.point.title,
          notInvoked: notInvokedBy(by),
          handler: q(h.fn.name),
        }),
      ];
    });
  },
};
