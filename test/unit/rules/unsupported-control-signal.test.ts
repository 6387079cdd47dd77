import assert from 'node:assert/strict';
import { test } from 'node:test';
import { applyFix, diagnose, expectAt, py, rangeText } from './helpers';
import { ruleTester } from './rule-tester';

test('unsupported-control-signal: HookRejection on modify_tool_call, on the raise; the message lists what is allowed', async () => {
  const src = py`
    from rasa.mantle.hooks import HookRejection, ToolCallPayload, modify_tool_call

    @modify_tool_call()
    async def guard(call: ToolCallPayload) -> ToolCallPayload:
        if call.tool_name == "place_order":
            raise HookRejection(reason="no orders")
        return call
  `;
  const diags = await diagnose('unsupported-control-signal', src);
  expectAt(diags, ['6:9']);
  assert.equal(diags[0].severity, 'error');
  assert.equal(rangeText(src, diags[0]), 'raise HookRejection(reason="no orders")');
  assert.match(
    diags[0].message,
    /^`modify_tool_call` allows only `RetryModel`; `HookRejection` here fails rasa train \(AST check\), and at run time the unsupported signal is logged and discarded; the original call proceeds through preflight\.$/,
  );
  // The point's own signal first, message and keyword kept; never a silent `pass`.
  assert.deepEqual(
    diags[0].fixes?.map((f) => [f.title, !!f.isPreferred]),
    [
      ['Raise RetryModel instead: the model is asked again with this feedback', false],
      ['Remove the rejection: this hook will no longer block anything', false],
    ],
  );
  assert.equal(
    applyFix(src, diags[0]),
    src
      // The rejection's import goes with its only use; the line is written sorted.
      .replace(
        'HookRejection, ToolCallPayload, modify_tool_call\n',
        'RetryModel, ToolCallPayload, modify_tool_call\n',
      )
      .replace('raise HookRejection(reason="no orders")', 'raise RetryModel(feedback="no orders")'),
  );
  assert.equal(
    applyFix(src, diags[0], 1),
    src
      .replace('HookRejection, ToolCallPayload, modify_tool_call\n', 'ToolCallPayload, modify_tool_call\n')
      .replace('raise HookRejection(reason="no orders")', 'return call'),
  );
});

test('unsupported-control-signal: points without signals, via `mh.` and aliases; the fix removes a standalone raise line', async () => {
  const src = py`
    import rasa.mantle.hooks as mh
    from rasa.mantle.hooks import RetryModel as Retry

    @mh.modify_model_request()
    async def req(r: mh.ModelRequestPayload) -> mh.ModelRequestPayload:
        log("x")
        raise mh.RetryModel("again")
        return r

    @mh.modify_knowledge_query()
    async def kq(q: mh.KnowledgeQueryPayload) -> mh.KnowledgeQueryPayload:
        raise Retry(feedback="x")
  `;
  const diags = await diagnose('unsupported-control-signal', src);
  expectAt(diags, ['7:5', '12:5']);
  assert.match(
    diags[0].message,
    /`modify_model_request` allows no control signal; `RetryModel` here fails rasa train .* keeps the last good request and still calls the LLM/,
  );
  assert.deepEqual(
    diags[0].fixes?.map((f) => f.title),
    ['Remove the retry: this hook will no longer ask the model again'],
  );
  assert.equal(applyFix(src, diags[0]), src.replace('raise mh.RetryModel("again")', 'return r'));
  assert.match(diags[1].message, /`modify_knowledge_query` allows no control signal/);
});

test('unsupported-control-signal: observe hooks never signal', async () => {
  const src = py`
    from rasa.mantle.hooks import HookRejection, IncomingMessagePayload, on_incoming_message

    @on_incoming_message()
    async def watch(m: IncomingMessagePayload) -> None:
        raise HookRejection(reason="spam"); x = 1
  `;
  const diags = await diagnose('unsupported-control-signal', src);
  expectAt(diags, ['5:5']);
  assert.match(
    diags[0].message,
    /observe hooks cannot raise control signals \(they are for modify hooks only\).*logged and discarded: observe hooks have no effect on the turn/,
  );
  assert.equal(diags[0].fixes, undefined, 'not alone on its line: no removal fix');
});

test('unsupported-control-signal: quiet on allowed signals (positional and keyword), re-raise and other exceptions', async () => {
  const src = py`
    from rasa.mantle.hooks import (
        HookRejection,
        ModelResponsePayload,
        OutgoingTextPayload,
        RetryModel,
        ToolCallPayload,
        modify_model_response,
        modify_outgoing_text,
        modify_tool_call,
    )

    @modify_model_response()
    async def a(r: ModelResponsePayload) -> ModelResponsePayload:
        raise RetryModel("Only answer from retrieved passages.")

    @modify_tool_call()
    async def b(c: ToolCallPayload) -> ToolCallPayload:
        try:
            return c
        except KeyError:
            raise
        raise RetryModel(feedback="x")

    @modify_outgoing_text()
    async def c(t: OutgoingTextPayload) -> OutgoingTextPayload:
        if not t.text:
            raise ValueError("empty")
        raise HookRejection(reason="x")
  `;
  assert.deepEqual(await diagnose('unsupported-control-signal', src), []);
});

test('unsupported-control-signal: the switch keeps an import still used elsewhere, and removes it from a parenthesised list', async () => {
  const used = py`
    from rasa.mantle.hooks import HookRejection, ToolCallPayload, modify_tool_call

    BLOCKED = HookRejection

    @modify_tool_call()
    async def guard(call: ToolCallPayload) -> ToolCallPayload:
        raise HookRejection("no")
  `;
  const d1 = await diagnose('unsupported-control-signal', used);
  assert.match(applyFix(used, d1[0]!), /^ {4}HookRejection,\n {4}RetryModel,\n/m);
  const listed = py`
    from rasa.mantle.hooks import (
        HookRejection,
        ToolCallPayload,
        modify_tool_call,
    )

    @modify_tool_call()
    async def guard(call: ToolCallPayload) -> ToolCallPayload:
        raise HookRejection("no")
  `;
  const d2 = await diagnose('unsupported-control-signal', listed);
  const fixed = applyFix(listed, d2[0]!);
  assert.ok(
    fixed.startsWith(
      'from rasa.mantle.hooks import (\n    ToolCallPayload,\n    modify_tool_call,\n    RetryModel,\n)\n',
    ),
    fixed,
  );
  assert.deepEqual(await diagnose('unsupported-control-signal', fixed), []);
  assert.deepEqual(await diagnose('undefined-name', fixed), []);
});

// The rule's docs example as a table (rule-tester.ts): quiet on the fixed code; on the bad code,
// the message id it reports and where (#43 item 6).
ruleTester('unsupported-control-signal', {
  docsExample: { errors: [{ messageId: 'notAllowedHere', line: 7, column: 9 }] },
});
