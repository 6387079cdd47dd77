// server/features/scaffold-completion.ts (#31 item 11): a modify-hook snippet for a point the
// agent already has a modify hook at says so and comes after the others (it would be an
// immediate duplicate-modify-hook error); the other snippets are as before.
import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { parseModule } from '../../runtime/analysis';
import { initParser } from '../../runtime/python';
import { scaffoldCompletions, takenModifyPoints } from '../../server/features/scaffold-completion';

before(() => initParser());

const TEXT = `from rasa.mantle.hooks import ToolCallPayload, modify_tool_call


@modify_tool_call()
async def guard(call: ToolCallPayload) -> ToolCallPayload:
    return call


hook-modify-tool
`;

test('hook-modify-tool-call is marked and last once the agent has guard at tool_call', () => {
  const model = parseModule(TEXT, '/agent/hooks.py');
  const taken = takenModifyPoints([model]);
  assert.deepEqual([...taken], [['tool_call', 'guard']]);
  const items = scaffoldCompletions(
    model,
    TEXT,
    'hook-modify-tool',
    { line: 8, character: 16 },
    undefined,
    taken,
  )!;
  const order = [...items].sort((a, b) => a.sortText!.localeCompare(b.sortText!)).map((i) => i.label);
  assert.equal(order[order.length - 1], 'hook-modify-tool-call', order.join(', '));
  const call = items.find((i) => i.label === 'hook-modify-tool-call')!;
  assert.match(
    call.detail!,
    /^the agent already has guard here: a second modify hook is a duplicate-modify-hook error/,
  );
  const result = items.find((i) => i.label === 'hook-modify-tool-result')!;
  assert.doesNotMatch(result.detail!, /already has/);
});
