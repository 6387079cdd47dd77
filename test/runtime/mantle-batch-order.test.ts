// Issue #44 item 8: in a batch, Mantle's modify_tool_result runs after each dispatched call returns,
// before the next call is dispatched, as rasa-pro 3.21 does (rasa/mantle/orchestration/
// orchestrator.py:2531-2577: `for tc in tool_calls:` dispatches one call, then
// apply_tool_result_hooks for it). It did, except in an agent that also has Cayu hooks, where all
// three results were hooked after the whole batch. The built CLI with a real python3 (shims).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';

const cli = join(__dirname, '..', '..', 'dist', 'cli.js');
const dir = mkdtempSync(join(tmpdir(), 'hooksmith-batch-order-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const MANTLE = `from rasa.mantle.hooks import ToolResultPayload, modify_tool_result


@modify_tool_result()
async def tag(result: ToolResultPayload) -> ToolResultPayload:
    return result.model_copy(update={"value": result.value + " (tagged)"})
`;
const CAYU = `from cayu import RuntimeHook


class Watch(RuntimeHook):
    async def before_tool_call(self, context):
        return None
`;
const BATCH = `user: go
completions:
  - tool_calls: [{ tool_name: a, tool_args: {} }, { tool_name: b, tool_args: {} }, { tool_name: c, tool_args: {} }]
  - text: ok
tools:
  a: { value: 1 }
  b: { value: 2 }
  c: { value: 3 }
`;

function order(withCayu: boolean): string[] {
  writeFileSync(join(dir, 'hooks.py'), MANTLE);
  if (withCayu) writeFileSync(join(dir, 'runtime_hooks.py'), CAYU);
  else rmSync(join(dir, 'runtime_hooks.py'), { force: true });
  writeFileSync(join(dir, 'batch.scenario.yaml'), BATCH);
  const r = spawnSync(process.execPath, [cli, 'simulate', 'batch.scenario.yaml', '--format', 'json'], {
    cwd: dir,
    encoding: 'utf8',
    env: { ...process.env, HOOKSMITH_CAYU_ENGINE: 'emulation' },
  });
  assert.equal(r.status, 0, r.stderr);
  const events = (JSON.parse(r.stdout) as { events: { point: string; before?: { tool_name?: string } }[] })
    .events;
  return events
    .filter((e) => ['before_tool_call', 'tool_result'].includes(e.point))
    .map((e) => `${e.point}:${e.before?.tool_name}`);
}

test('modify_tool_result runs after each call of a batch, before the next is dispatched (rasa-pro 3.21)', () => {
  assert.deepEqual(order(false), ['tool_result:a', 'tool_result:b', 'tool_result:c']);
  assert.deepEqual(order(true), [
    'before_tool_call:a',
    'tool_result:a',
    'before_tool_call:b',
    'tool_result:b',
    'before_tool_call:c',
    'tool_result:c',
  ]);
});
