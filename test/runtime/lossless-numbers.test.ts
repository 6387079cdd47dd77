// Integers beyond 2^53 reach the hook, the tool and the output digit for digit on every path of
// the built CLI (#29 item 7, #34 items 5 and 6): run payload files, scenario tool arguments and
// results (Mantle and Cayu), expectations, from-messages recordings, --format json. And a
// recording's odd tool names and texts replay as recorded.
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, before, test } from 'node:test';
import fc from 'fast-check';
import { createHookRunner, type HookRunner } from '../../runtime/engine/runner';
import { parseJson, stringifyJson } from '../../runtime/json/lossless-json';

const root = join(__dirname, '..', '..');
const cli = join(root, 'dist', 'cli.js');
const BIG = '12345678901234567890';
/** 2**60 + 1: within Cayu's signed 64-bit range, beyond a double's 2^53. */
const B60 = '1152921504606846977';
let dir: string;
let runner: HookRunner;

interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
}

function hooksmith(args: string[], input = ''): Promise<Ran> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [cli, ...args], { cwd: dir });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(input);
  });
}

function write(rel: string, text: string): string {
  const file = join(dir, rel);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, text);
  return file;
}

// Each hook checks in Python what it was given and says what it saw: a rounded number is a
// RetryModel (Mantle) or a block (Cayu) naming the value that arrived.
const MANTLE_HOOKS = `from rasa.mantle.hooks import (RetryModel, ToolCallPayload, ToolResultPayload,
    modify_tool_call, modify_tool_result)
import json

EXPECTED = {${BIG}, ${B60}}

@modify_tool_call()
async def check_ids(call: ToolCallPayload) -> ToolCallPayload:
    got = call.arguments.get("id")
    if got is None:
        return call
    if got not in EXPECTED:
        raise RetryModel(feedback=f"id arrived as {got!r}")
    return call.model_copy(update={"arguments": {**call.arguments, "seen": got, "next": got + 1}})

@modify_tool_result()
async def check_result(result: ToolResultPayload) -> ToolResultPayload:
    value = json.loads(result.value) if result.value.startswith("{") else None
    if isinstance(value, dict) and value.get("id") != ${B60}:
        return result.model_copy(update={"value": f"the tool result arrived as {result.value}", "is_error": True})
    return result
`;

const ECHO_HOOK = `from rasa.mantle.hooks import ToolCallPayload, modify_tool_call
import json

@modify_tool_call()
async def echo(call: ToolCallPayload) -> ToolCallPayload:
    # What the hook holds, written by Python itself.
    return call.model_copy(update={"tool_name": json.dumps(call.arguments)})
`;

const CAYU_HOOKS = `from cayu.observability import BeforeToolCallDecision, BeforeToolCallHookContext, RuntimeHook

class IdGuard(RuntimeHook):
    async def before_tool_call(self, context: BeforeToolCallHookContext) -> BeforeToolCallDecision | None:
        got = context.arguments.get("id")
        if got != 2**60 + 1:
            return BeforeToolCallDecision(action="block", block_reason=f"id arrived as {got!r}")
        return BeforeToolCallDecision(action="proceed_modified", modified_arguments={"id": got, "next": got + 1})
`;

const scenario = (expectNext: string) => `name: big ids
user: look it up
completions:
  - tool_calls:
      - tool_name: lookup
        tool_args: { id: ${B60} }
  - text: done
tools:
  lookup:
    value: { id: ${B60}, big: ${BIG} }
expect:
  tool_called:
    tool_name: lookup
    arguments: { id: ${B60}, next: ${expectNext} }
  no_crashes: true
`;

before(() => {
  if (!existsSync(cli))
    spawnSync(process.execPath, [join(root, 'scripts/build.mjs')], { cwd: root, stdio: 'inherit' });
  dir = mkdtempSync(join(tmpdir(), 'hooksmith-lossless-'));
  write('mantle/hooks.py', MANTLE_HOOKS);
  write('cayu/runtime_hooks.py', CAYU_HOOKS);
  write('echo/hooks.py', ECHO_HOOK);
  runner = createHookRunner();
});
after(async () => {
  await runner.dispose();
  rmSync(dir, { recursive: true, force: true });
});

test(`run --payload FILE: ${BIG} reaches the hook and the JSON and text output exact`, async () => {
  const payload = write(
    'mantle/big.json',
    `{"tool_name": "lookup", "arguments": {"id": ${BIG}}, "sender_id": "u1"}`,
  );
  const json = await hooksmith([
    'run',
    `${dir}/mantle/hooks.py::check_ids`,
    '--payload',
    payload,
    '--format',
    'json',
  ]);
  assert.equal(json.code, 0, json.stdout + json.stderr);
  const r = parseJson(json.stdout) as { outcome: string; payload: { arguments: Record<string, unknown> } };
  assert.equal(r.outcome, 'returned');
  assert.deepEqual(r.payload.arguments, { id: BigInt(BIG), seen: BigInt(BIG), next: BigInt(BIG) + 1n });
  assert.match(json.stdout, new RegExp(`"seen": ${BIG}\\b`));
  const text = await hooksmith(
    ['run', `${dir}/mantle/hooks.py::check_ids`, '--payload', '-'],
    readFileSync(payload, 'utf8'),
  );
  assert.equal(text.code, 0, text.stdout + text.stderr);
  assert.match(text.stdout, new RegExp(`"seen":${BIG}`));
});

test('a payload case comparing a big integer passes exactly and fails on an off-by-one', async () => {
  const caseText = (next: bigint) =>
    `{"hook": "hooks.py::check_ids", "expect": {"outcome": "returned", "fields": {"arguments": {"next": ${next}}}},
      "tool_name": "lookup", "arguments": {"id": ${BIG}}, "sender_id": "u1"}`;
  const file = write('mantle/.hooksmith/payloads/big-case.json', caseText(BigInt(BIG) + 1n));
  const pass = await hooksmith(['test', file]);
  assert.equal(pass.code, 0, pass.stdout + pass.stderr);
  writeFileSync(file, caseText(BigInt(BIG) + 2n));
  const fail = await hooksmith(['test', file, '--format', 'json']);
  assert.equal(fail.code, 1, fail.stdout + fail.stderr);
  assert.match(fail.stdout, /"passed": false/);
  assert.ok(fail.stdout.includes(String(BigInt(BIG) + 2n)), fail.stdout);
  rmSync(file);
});

test('test --update records a big integer snapshot digit for digit, and it passes after', async () => {
  const file = write(
    'mantle/.hooksmith/payloads/big-snapshot.json',
    `{"hook": "hooks.py::check_ids", "expect": {"fields": "snapshot"},\n "tool_name": "lookup", "arguments": {"id": ${BIG}}, "sender_id": "u1"}\n`,
  );
  const update = await hooksmith(['test', file, '--update']);
  assert.equal(update.code, 0, update.stdout + update.stderr);
  const saved = readFileSync(file, 'utf8');
  assert.match(saved, new RegExp(`"next": ${BigInt(BIG) + 1n}\\b`));
  assert.deepEqual(
    (parseJson(saved) as { expect: { fields: { snapshot: { arguments: unknown } } } }).expect.fields.snapshot
      .arguments,
    {
      id: BigInt(BIG),
      seen: BigInt(BIG),
      next: BigInt(BIG) + 1n,
    },
  );
  const again = await hooksmith(['test', file]);
  assert.equal(again.code, 0, again.stdout + again.stderr);
  rmSync(file);
});

for (const engine of ['mantle', 'cayu'] as const)
  test(`${engine} scenario: ${B60} in tool arguments and tool results reaches the hook and the tool exact`, async () => {
    const file = write(`${engine}/big.scenario.yaml`, scenario(String(BigInt(B60) + 1n)));
    const pass = await hooksmith(['test', file]);
    assert.equal(pass.code, 0, pass.stdout + pass.stderr);
    const sim = await hooksmith(['simulate', file, '--format', 'json']);
    assert.equal(sim.code, 0, sim.stderr);
    const result = parseJson(sim.stdout) as { tools: { arguments: Record<string, unknown> }[] };
    assert.deepEqual(result.tools[0]!.arguments.id, BigInt(B60));
    assert.ok(!sim.stdout.includes('arrived as'), sim.stdout.slice(0, 3000));
    // The tool's result as the engine serialises it: the digits of the scenario.
    assert.ok(sim.stdout.includes(`{\\"id\\":${B60},\\"big\\":${BIG}}`), sim.stdout.slice(0, 3000));
    writeFileSync(file, scenario(String(BigInt(B60) + 2n)));
    const fail = await hooksmith(['test', file]);
    assert.equal(fail.code, 1, fail.stdout + fail.stderr);
    assert.ok(fail.stdout.includes(`"next":${BigInt(B60) + 1n}`), fail.stdout);
  });

test(`from-messages keeps ${BIG}; a tool text 1e400 stays text; tools named __proto__, constructor, toString replay`, async () => {
  const odd = ['__proto__', 'constructor', 'toString'];
  const messages = [
    { role: 'user', content: 'hi' },
    {
      role: 'assistant',
      content: null,
      tool_calls: [
        { id: 'a', function: { name: 'lookup', arguments: `{"id": ${BIG}}` } },
        ...odd.map((name, i) => ({ id: `o${i}`, function: { name, arguments: '{}' } })),
      ],
    },
    { role: 'tool', tool_call_id: 'a', content: '1e400' },
    ...odd.map((name, i) => ({
      role: 'tool',
      tool_call_id: `o${i}`,
      content: `{"tool": "${name}", "n": ${BIG}}`,
    })),
    { role: 'assistant', content: 'ok' },
  ];
  // The arguments' digits as JSON text, as a recording holds them.
  const input = write('mantle/recording.json', JSON.stringify(messages));
  const out = join(dir, 'mantle/recorded.scenario.yaml');
  const rec = await hooksmith(['scenario', 'from-messages', input, '-o', out]);
  assert.equal(rec.code, 0, rec.stdout + rec.stderr);
  const yaml = readFileSync(out, 'utf8');
  assert.match(yaml, new RegExp(`id: ${BIG}\\n`));
  assert.match(yaml, /value: "1e400"/);
  const sim = await hooksmith(['simulate', out, '--format', 'json']);
  assert.equal(sim.code, 0, sim.stdout + sim.stderr);
  const result = parseJson(sim.stdout) as {
    events: { point: string; before?: { tool_name?: string; value?: string } }[];
  };
  const results = new Map(
    result.events
      .filter((e) => e.point === 'tool_result' && e.before)
      .map((e) => [e.before!.tool_name!, e.before!.value!]),
  );
  assert.equal(results.get('lookup'), '"1e400"');
  for (const name of odd) assert.equal(results.get(name), `{"tool":"${name}","n":${BIG}}`, name);
  // And again from the simulation's own JSON: the same digits.
  const again = await hooksmith(['scenario', 'from-messages', '-'], sim.stdout);
  assert.equal(again.code, 0, again.stderr);
  assert.match(again.stdout, new RegExp(`id: ${BIG}\\n`));
  assert.match(again.stdout, new RegExp(`__proto__:\\n\\s+value:\\n\\s+tool: __proto__\\n\\s+n: ${BIG}`));
});

test('a tool named constructor that the scenario does not mock is no mock tool', async () => {
  const file = write(
    'mantle/ctor.scenario.yaml',
    `name: ctor\nuser: hi\ncompletions:\n  - tool_calls:\n      - tool_name: constructor\n        tool_args: {}\n  - text: done\ntools: {}\n`,
  );
  const sim = await hooksmith(['simulate', file, '--format', 'json']);
  const result = parseJson(sim.stdout) as {
    events: { point: string; before?: { value?: string; is_error?: boolean } }[];
  };
  const res = result.events.find((e) => e.point === 'tool_result');
  assert.equal(res?.before?.is_error, true, sim.stdout.slice(0, 2000));
  assert.match(String(res?.before?.value), /no mock tool 'constructor'/);
});

// Random JSON holding big integers: Node → host → hook → Node unchanged, and the hook holds
// the same values (its own json.dumps of them parses back equal).
const bigInts = fc.bigInt({ min: -(2n ** 80n), max: 2n ** 80n });
const leaf = fc.oneof(
  bigInts,
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }).filter((d) => !Object.is(d, -0)),
  fc.string({ unit: 'grapheme', maxLength: 8 }),
  fc.boolean(),
  fc.constant(null),
);
const { value: jsonValue } = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    leaf,
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(fc.string({ maxLength: 10 }), tie('value'), { maxKeys: 4 }),
  ),
}));
const narrow = (v: unknown) => parseJson(stringifyJson(v));

test('property: random JSON with big integers round-trips Node → host → hook → Node unchanged', async () => {
  await fc.assert(
    fc.asyncProperty(fc.dictionary(fc.string({ maxLength: 10 }), jsonValue, { maxKeys: 5 }), async (args) => {
      const expected = narrow(args);
      const r = await runner.run({
        file: join(dir, 'echo/hooks.py'),
        handler: 'echo',
        payload: { tool_name: 'x', arguments: args, sender_id: 'u1' },
      });
      assert.equal(r.outcome, 'returned', stringifyJson(r.error));
      const back = r.payload as { tool_name: string; arguments: unknown };
      assert.deepEqual(back.arguments, expected);
      assert.deepEqual(parseJson(back.tool_name), expected);
    }),
    { numRuns: 150, seed: 29 },
  );
});
