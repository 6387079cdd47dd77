import assert from 'node:assert/strict';
import { test } from 'node:test';
import { diagnose, expectAt, py } from './helpers';
import { ruleTester } from './rule-tester';

const first = py`
  from rasa.mantle.hooks import ToolCallPayload, modify_tool_call

  @modify_tool_call()
  async def normalize(call: ToolCallPayload) -> ToolCallPayload:
      return call
`;
const second = py`
  import rasa.mantle.hooks as mh

  @mh.modify_tool_call(timeout_ms=800)
  async def steer(call: mh.ToolCallPayload) -> mh.ToolCallPayload:
      return call
`;

test('duplicate-modify-hook: across modules of the agent, on every registration, with related locations', async () => {
  const here = await diagnose('duplicate-modify-hook', first, {
    path: 'hooks.py',
    siblings: { 'hooks/steer.py': second },
  });
  expectAt(here, ['3:1']);
  assert.equal(here[0].severity, 'error');
  assert.match(
    here[0].message,
    /`modify_tool_call` is registered 2 times in this agent \(`normalize` here; also `steer` at steer\.py:3\)/,
  );
  assert.deepEqual(
    here[0].related?.map((r) => [r.file, r.range.start.line]),
    [['hooks/steer.py', 2]],
  );
  const there = await diagnose('duplicate-modify-hook', second, {
    path: 'hooks/steer.py',
    siblings: { 'hooks.py': first },
  });
  expectAt(there, ['3:1']);
  assert.equal(there[0].related?.[0].file, 'hooks.py');
});

test('duplicate-modify-hook: two in one file both reported', async () => {
  const src = py`
    from rasa.mantle.hooks import ModelRequestPayload, modify_model_request

    @modify_model_request()
    async def a(r: ModelRequestPayload) -> ModelRequestPayload:
        return r

    @modify_model_request()
    async def b(r: ModelRequestPayload) -> ModelRequestPayload:
        return r
  `;
  expectAt(await diagnose('duplicate-modify-hook', src), ['3:1', '7:1']);
});

test('duplicate-modify-hook: quiet on many observers and on modify hooks of different points', async () => {
  const src = py`
    from rasa.mantle.hooks import ToolCallPayload, ToolResultPayload, modify_tool_call, modify_tool_result, on_tool_call

    @on_tool_call()
    async def a(c: ToolCallPayload) -> None: ...

    @on_tool_call()
    async def b(c: ToolCallPayload) -> None: ...

    @modify_tool_call()
    async def c(c: ToolCallPayload) -> ToolCallPayload:
        return c

    @modify_tool_result()
    async def d(r: ToolResultPayload) -> ToolResultPayload:
        return r
  `;
  assert.deepEqual(await diagnose('duplicate-modify-hook', src), []);
});

test('duplicate-modify-hook: 2,000 copies in one module name at most 10 others per report', async () => {
  let src = 'from rasa.mantle.hooks import ToolCallPayload, modify_tool_call\n';
  for (let i = 0; i < 2000; i++)
    src += `\n@modify_tool_call()\nasync def m${i}(c: ToolCallPayload) -> ToolCallPayload:\n    return c\n`;
  const all = await diagnose('duplicate-modify-hook', src);
  assert.equal(all.length, 2000);
  assert.ok(all.every((d) => (d.related?.length ?? 0) === 10));
  assert.match(all[0].message, /registered 2000 times .*`m10` at hooks\.py:\d+ and 1989 more\)/);
});

// The rule's docs example as a table (rule-tester.ts): quiet on the fixed code; on the bad code,
// the message id it reports and where (#43 item 6).
ruleTester('duplicate-modify-hook', {
  docsExample: {
    errors: [
      { messageId: 'registeredTwice', line: 4, column: 1 },
      { messageId: 'registeredTwice', line: 11, column: 1 },
    ],
  },
});
