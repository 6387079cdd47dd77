import assert from 'node:assert/strict';
import { test } from 'node:test';
import { applyFix, diagnose, expectAt, py, rangeText } from './helpers';
import { ruleTester } from './rule-tester';

test('invalid-timeout: zero, negative, float, string, bool and None are errors on the value', async () => {
  const values = ['0', '-5', '1.5', '"500"', 'True', 'None'];
  for (const v of values) {
    const src = `from rasa.mantle.hooks import modify_tool_call\n\n@modify_tool_call(timeout_ms=${v})\nasync def g(c): return c\n`;
    const diags = await diagnose('invalid-timeout', src);
    expectAt(diags, ['3:30']);
    assert.equal(rangeText(src, diags[0]), v, v);
    assert.match(diags[0].message, /^`timeout_ms` must be a positive integer number of milliseconds: /);
  }
  const float = `import rasa.mantle.hooks as mh\n\n@mh.on_tool_call(timeout_ms=1.5)\nasync def g(c) -> None: ...\n`;
  const [d] = await diagnose('invalid-timeout', float);
  assert.equal(applyFix(float, d), float.replace('1.5', '2'));
});

test('invalid-timeout: unknown keyword (with rename fix) and positional arguments', async () => {
  const src = py`
    from rasa.mantle.hooks import on_turn_started, on_turn_finished

    @on_turn_started(timeout=200)
    async def a(p) -> None: ...

    @on_turn_finished(300, retries=2)
    async def b(p) -> None: ...
  `;
  const diags = await diagnose('invalid-timeout', src);
  expectAt(diags, ['3:18', '6:19', '6:24']);
  assert.match(
    diags[0].message,
    /`@on_turn_started\(\)` has no option `timeout`; did you mean `timeout_ms`\? The decorator does not accept other arguments/,
  );
  assert.equal(applyFix(src, diags[0]), src.replace('timeout=200', 'timeout_ms=200'));
  assert.match(
    diags[1].message,
    /takes no positional argument; its only option is `timeout_ms=` \(a positive integer, default 100 ms for observe hooks\)/,
  );
  assert.match(diags[2].message, /no option `retries`; its only option is `timeout_ms`/);
  assert.equal(diags[2].fixes, undefined);
});

test('invalid-timeout: quiet on positive integers, names and no arguments', async () => {
  const src = py`
    from rasa.mantle.hooks import modify_model_request, on_model_request

    BUDGET = 2000

    @modify_model_request(timeout_ms=2000)
    async def a(r): return r

    @on_model_request(timeout_ms=BUDGET)
    async def b(r) -> None: ...

    @on_model_request()
    async def c(r) -> None: ...
  `;
  assert.deepEqual(await diagnose('invalid-timeout', src), []);
});

// The rule's docs example as a table (rule-tester.ts): quiet on the fixed code; on the bad code,
// the message id it reports and where (#43 item 6).
ruleTester('invalid-timeout', {
  docsExample: { errors: [{ messageId: 'unknownOptionDidYouMean', line: 4, column: 23 }] },
});
