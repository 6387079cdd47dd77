// Where the simulator follows the spec on timing and replay, with real python3 running real hooks:
// observers off the turn path, a loop-blocking modify hook over its budget, and the arguments a
// replayed assistant message carries after a preflight rewrite.
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { createHookRunner, type HookRunner } from '../../runtime/engine/runner';

const root = join(__dirname, '..', '..');
const cli = join(root, 'dist', 'cli.js');
let runner: HookRunner;
let dir: string;

before(() => {
  if (!existsSync(cli))
    spawnSync(process.execPath, [join(root, 'scripts/build.mjs')], { cwd: root, stdio: 'inherit' });
  runner = createHookRunner();
  dir = mkdtempSync(join(tmpdir(), 'hooksmith-simspec-'));
});
after(async () => {
  await runner.dispose();
  rmSync(dir, { recursive: true, force: true });
});

function agent(name: string, source: string): string {
  const d = join(dir, name);
  mkdirSync(d, { recursive: true });
  writeFileSync(join(d, 'hooks.py'), source);
  return d;
}

test('observers are scheduled concurrently and not awaited: a slow observer delays nothing', async () => {
  const a = agent(
    'slow-observer',
    `import asyncio
from rasa.mantle.hooks import ModelRequestPayload, TurnStartedPayload, modify_model_request, on_model_request, on_turn_started

SEEN = []

@on_turn_started(timeout_ms=2000)
async def slow_start(p: TurnStartedPayload) -> None:
    await asyncio.sleep(0.6)
    SEEN.append("observer")

@on_model_request(timeout_ms=2000)
async def slow_audit(p: ModelRequestPayload) -> None:
    await asyncio.sleep(0.6)
    SEEN.append("audit")

@modify_model_request()
async def stamp(p: ModelRequestPayload) -> ModelRequestPayload:
    # The observers beside it have not finished: nothing waited for them.
    print("seen:", ",".join(SEEN) or "nothing")
    return p
`,
  );
  const first = await runner.simulate({ user: 'hi', completions: [{ text: 'hello' }] }, a);
  assert.equal(first.events.find((e) => e.hook?.endsWith('::stamp'))!.output?.trim(), 'seen: nothing');
  // Timed once the host and the module are warm.
  const r = await runner.simulate({ user: 'hi', completions: [{ text: 'hello' }] }, a);
  assert.equal(r.status, 'completed');
  const start = r.events.find((e) => e.hook?.endsWith('::slow_start'))!;
  const audit = r.events.find((e) => e.hook?.endsWith('::slow_audit'))!;
  const stamp = r.events.find((e) => e.hook?.endsWith('::stamp'))!;
  for (const o of [start, audit]) {
    assert.equal(o.outcome, 'returned');
    assert.equal(o.offTurnPath, true);
    assert.ok(o.durationMs! >= 550, `observer ran its full time: ${o.durationMs}`);
    assert.ok(o.notes.some((n) => n.includes('not awaited on the turn path')));
  }
  assert.equal(stamp.offTurnPath, undefined);
  // Places are kept in firing order; the turn's time excludes the observers.
  assert.ok(start.seq < audit.seq && audit.seq < stamp.seq);
  assert.ok(r.durationMs! < 550, `turn duration ${r.durationMs} ms includes an observer`);
  assert.ok(r.hookMs! < 300, `hook time ${r.hookMs} ms includes an observer`);
});

test('an observer blocking the host does not take the modify hook down: it is run again', async () => {
  const a = agent(
    'blocking-observer',
    `import time
from rasa.mantle.hooks import ModelRequestPayload, modify_model_request, on_model_request

@on_model_request()
async def blocker(p: ModelRequestPayload) -> None:
    time.sleep(1.0)

@modify_model_request()
async def keep(p: ModelRequestPayload) -> ModelRequestPayload:
    return p
`,
  );
  const r = await runner.simulate({ user: 'hi', completions: [{ text: 'hello' }] }, a);
  const blocker = r.events.find((e) => e.hook?.endsWith('::blocker'))!;
  const keep = r.events.find((e) => e.hook?.endsWith('::keep'))!;
  assert.equal(blocker.outcome, 'timed-out');
  assert.equal(keep.outcome, 'returned');
  assert.ok(
    keep.notes.some((n) => n.startsWith('run again')),
    keep.notes.join('\n'),
  );
  assert.equal(r.status, 'completed');
});

const BLOCKING_MODIFY = `import time
from rasa.mantle.hooks import ModelRequestPayload, modify_model_request

@modify_model_request()
async def slow_rewrite(p: ModelRequestPayload) -> ModelRequestPayload:
    time.sleep(0.65)
    return p.model_copy(update={"messages": p.messages + [{"role": "system", "content": "be brief"}]})
`;

test('run: a modify hook blocking the loop 650 ms against 500 ms is over budget and exits 1', async () => {
  const a = agent('over-budget', BLOCKING_MODIFY);
  const payload = JSON.stringify({
    messages: [{ role: 'user', content: 'hi' }],
    tool_names: [],
    model_settings: {},
    iteration: 0,
    sender_id: 'u1',
  });
  const ran = await new Promise<{ code: number | null; stdout: string }>((resolve) => {
    const child = spawn(
      process.execPath,
      [cli, 'run', `${join(a, 'hooks.py')}::slow_rewrite`, '--payload', '-', '--format', 'json'],
      { cwd: root },
    );
    let stdout = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.on('close', (code) => resolve({ code, stdout }));
    child.stdin.end(payload);
  });
  assert.equal(ran.code, 1, ran.stdout);
  const result = JSON.parse(ran.stdout) as { outcome: string; overBudget?: boolean; notes: string[] };
  assert.equal(result.outcome, 'returned');
  assert.equal(result.overBudget, true);
  assert.ok(
    result.notes.some((n) => /500 ms budget.*blocked the event loop/.test(n)),
    result.notes.join('\n'),
  );
});

test('simulate: the same hook is marked over budget in the timeline', async () => {
  const a = agent('over-budget-sim', BLOCKING_MODIFY);
  const r = await runner.simulate({ user: 'hi', completions: [{ text: 'hello' }] }, a);
  const e = r.events.find((x) => x.hook?.endsWith('::slow_rewrite'))!;
  assert.equal(e.overBudget, true);
  assert.equal(e.outcome, 'returned');
});

test('after a preflight rewrite, the replayed assistant message carries the persisted arguments', async () => {
  const a = agent(
    'replay',
    `from rasa.mantle.hooks import ToolCallPayload, ToolResultPayload, modify_tool_call, modify_tool_result

@modify_tool_call()
async def normalise(call: ToolCallPayload) -> ToolCallPayload:
    return call.model_copy(update={"arguments": {**call.arguments, "card_id": call.arguments["card_id"].strip()}})

@modify_tool_result()
async def drop_secret(result: ToolResultPayload) -> ToolResultPayload:
    args = {k: v for k, v in result.arguments.items() if k != "cvv"}
    return result.model_copy(update={"arguments": args})
`,
  );
  const r = await runner.simulate(
    {
      user: 'order',
      completions: [
        {
          tool_calls: [
            { id: 'c1', tool_name: 'place_order', tool_args: { card_id: ' card_9 ', cvv: '123' } },
          ],
        },
        { text: 'done' },
      ],
      tools: { place_order: { value: { ok: true } } },
    },
    a,
  );
  assert.equal(r.status, 'completed');
  const requests = r.events.filter((e) => e.point === 'model_request');
  const second = requests[1]!.before as { messages: Record<string, unknown>[] };
  const assistant = second.messages.find((m) => m.role === 'assistant')!;
  assert.deepEqual(assistant.tool_calls, [
    { id: 'c1', tool_name: 'place_order', tool_args: { card_id: 'card_9' }, type: 'function' },
  ]);
  const tool = second.messages.find((m) => m.role === 'tool')!;
  assert.equal(tool.tool_call_id, 'c1');
});
