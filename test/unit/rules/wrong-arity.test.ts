import assert from 'node:assert/strict';
import { test } from 'node:test';
import { diagnose, expectAt, py, rangeText } from './helpers';
import { ruleTester } from './rule-tester';

test('wrong-arity: no parameter, an extra parameter, *args and keyword-only', async () => {
  const src = py`
    from rasa.mantle.hooks import ModelResponsePayload, modify_model_response, on_model_response

    @on_model_response()
    async def none_at_all() -> None: ...

    @modify_model_response()
    async def two(response: ModelResponsePayload, extra=1) -> ModelResponsePayload:
        return response

    @on_model_response()
    async def star(*args) -> None: ...

    @on_model_response()
    async def kwonly(*, response: ModelResponsePayload) -> None: ...
  `;
  const diags = await diagnose('wrong-arity', src);
  expectAt(diags, ['4:22', '7:47', '11:16', '14:21']);
  assert.equal(diags[0].severity, 'error');
  assert.equal(rangeText(src, diags[0]), '()');
  assert.match(
    diags[0].message,
    /`none_at_all` takes no parameter; the engine calls `on_model_response` hooks with exactly one positional argument, the `ModelResponsePayload`/,
  );
  assert.equal(rangeText(src, diags[1]), 'extra=1');
  assert.match(diags[1].message, /`extra` \(with a default\)/);
  assert.match(diags[2].message, /only `\*args`/);
  assert.match(diags[3].message, /keyword-only `response`/);
});

test('wrong-arity: quiet on exactly one parameter, any name', async () => {
  const src = py`
    from rasa.mantle.hooks import KnowledgeQueryPayload, on_knowledge_query

    @on_knowledge_query()
    async def log_query(q: KnowledgeQueryPayload) -> None: ...
  `;
  assert.deepEqual(await diagnose('wrong-arity', src), []);
});

// The rule's docs example as a table (rule-tester.ts): quiet on the fixed code; on the bad code,
// the message id it reports and where (#43 item 6).
ruleTester('wrong-arity', {
  docsExample: { errors: [{ messageId: 'extraParameter', line: 5, column: 40 }] },
});
