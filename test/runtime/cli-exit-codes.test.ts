// The built CLI with a real python3: the exit code of `run` for every outcome and input error,
// and of `simulate` for every way a turn ends (#16 items 1, 2, 3, 9, 10, 15, 17). CI trusts these.
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';

const root = join(__dirname, '..', '..');
const cli = join(root, 'dist', 'cli.js');
let dir: string;
let simAgent: string;

interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
}

function hooksmith(args: string[], input = '', cwd = root): Promise<Ran> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [cli, ...args], { cwd });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.on('error', () => undefined);
    child.stdin.end(input);
  });
}

const HEADER = `import asyncio
import time

from rasa.mantle.hooks import (
    IncomingMessagePayload, KnowledgeQueryPayload, ModelRequestPayload, ModelResponsePayload,
    HookRejection, RetryModel,
    modify_incoming_message, modify_knowledge_query, modify_model_request, modify_model_response,
)
`;

/** One agent per hook: an agent registers one modify hook per point. */
const HOOKS: Record<string, string> = {
  echo: `
@modify_knowledge_query(timeout_ms=200)
async def echo(payload: KnowledgeQueryPayload) -> KnowledgeQueryPayload:
    return payload
`,
  retry: `
@modify_model_response(timeout_ms=200)
async def retry(response: ModelResponsePayload) -> ModelResponsePayload:
    raise RetryModel("be grounded")
`,
  reject: `
@modify_incoming_message(timeout_ms=200)
async def reject(message: IncomingMessagePayload) -> IncomingMessagePayload:
    raise HookRejection("spam")
`,
  crash: `
@modify_knowledge_query(timeout_ms=200)
async def crash(payload: KnowledgeQueryPayload) -> KnowledgeQueryPayload:
    raise ValueError("nope")
`,
  stubborn: `
@modify_knowledge_query(timeout_ms=100)
async def stubborn(payload: KnowledgeQueryPayload) -> KnowledgeQueryPayload:
    try:
        await asyncio.sleep(10)
    except asyncio.CancelledError:
        time.sleep(3)
    return payload
`,
  blocker: `
@modify_knowledge_query(timeout_ms=100)
async def blocker(payload: KnowledgeQueryPayload) -> KnowledgeQueryPayload:
    time.sleep(30)
    return payload
`,
  invalid: `
@modify_model_response(timeout_ms=200)
async def invalid(response: ModelResponsePayload) -> ModelResponsePayload:
    return None
`,
  ignored: `
def _helper():
    raise RetryModel("not allowed here")


@modify_model_request(timeout_ms=200)
async def ignored(request: ModelRequestPayload) -> ModelRequestPayload:
    _helper()
    return request
`,
};

/** The simulate agent: an observer that, cancelled, swallows CancelledError and blocks. */
const OBSERVER = `import asyncio
import time

from rasa.mantle.hooks import TurnStartedPayload, on_turn_started


@on_turn_started(timeout_ms=100)
async def stubborn_observer(payload: TurnStartedPayload) -> None:
    try:
        await asyncio.sleep(10)
    except asyncio.CancelledError:
        time.sleep(3)
`;

const QUERY = JSON.stringify({ query: 'opening hours', sender_id: 'u' });
const RESPONSE = JSON.stringify({ text: 'hi', tool_calls: [], sender_id: 'u' });
const REQUEST = JSON.stringify({ messages: [], sender_id: 'u' });
const INCOMING = JSON.stringify({ text: 'buy now', sender_id: 'u' });

const hookFile = (handler: string) => join(dir, handler, 'hooks.py');
const run = (handler: string, payload: string, extra: string[] = []) =>
  hooksmith(['run', `${hookFile(handler)}::${handler}`, '--payload', '-', ...extra], payload);

before(() => {
  if (!existsSync(cli))
    spawnSync(process.execPath, [join(root, 'scripts/build.mjs')], { cwd: root, stdio: 'inherit' });
  dir = mkdtempSync(join(tmpdir(), 'hooksmith-exit-'));
  for (const [name, body] of Object.entries(HOOKS)) {
    mkdirSync(join(dir, name));
    writeFileSync(hookFile(name), HEADER + body);
  }
  simAgent = join(dir, 'sim');
  mkdirSync(simAgent);
  writeFileSync(join(simAgent, 'hooks.py'), OBSERVER);
});
after(() => rmSync(dir, { recursive: true, force: true }));

describe('run: the exit code follows the outcome', () => {
  const cases: [string, string, string, number][] = [
    ['echo', QUERY, 'returned', 0],
    ['retry', RESPONSE, 'retry-model', 0],
    ['reject', INCOMING, 'hook-rejection', 0],
    ['crash', QUERY, 'crashed', 1],
    // The reproduction: cancelled, it swallows CancelledError and blocks for 3 s.
    ['stubborn', QUERY, 'timed-out', 1],
    ['blocker', QUERY, 'timed-out', 1],
    ['invalid', RESPONSE, 'invalid-return', 1],
    ['ignored', REQUEST, 'ignored-signal', 1],
  ];
  for (const [handler, payload, outcome, code] of cases)
    test(`${outcome} (${handler}): exit ${code}`, async () => {
      const t0 = Date.now();
      const r = await run(handler, payload, ['--format', 'json']);
      assert.equal(r.code, code, `${handler}: exit ${r.code}\n${r.stderr}\n${r.stdout.slice(0, 500)}`);
      assert.equal(JSON.parse(r.stdout).outcome, outcome);
      // Nothing waits for a blocked host: the run ends at the deadline, not after the 30 s sleep.
      assert.ok(Date.now() - t0 < 15_000, `${handler} took ${Date.now() - t0} ms`);
    });

  test('input errors exit 2: malformed payload, unknown handler, import failure, check errors', async () => {
    assert.equal((await run('echo', '{"query": 42, "sender_id": "u"}')).code, 2);
    assert.equal((await run('missing', QUERY)).code, 2);
    const broken = join(dir, 'broken');
    mkdirSync(broken);
    writeFileSync(join(broken, 'hooks.py'), HEADER + HOOKS.echo + '\nraise RuntimeError("at import")\n');
    const load = await hooksmith(['run', `${join(broken, 'hooks.py')}::echo`, '--payload', '-'], QUERY);
    assert.equal(load.code, 2, load.stderr);
    assert.match(load.stderr, /failed to load: RuntimeError: at import/);
    const bad = join(dir, 'bad');
    mkdirSync(bad);
    writeFileSync(
      join(bad, 'hooks.py'),
      'from rasa.mantle.hooks import on_turn_started\n\n@on_turn_started\nasync def f(p) -> None:\n    pass\n',
    );
    assert.equal((await hooksmith(['run', `${join(bad, 'hooks.py')}::f`, '--payload', '-'], '{}')).code, 2);
  });
});

describe('run: payloads JSON cannot carry faithfully are refused with exit 2, naming the path', () => {
  const nested = (levels: number) => '{"a": '.repeat(levels) + '1' + '}'.repeat(levels);

  for (const levels of [1000, 5000])
    test(`nesting ${levels} levels deep`, async () => {
      const r = await run('echo', `{"query": "q", "sender_id": "u", "call": ${nested(levels)}}`);
      assert.equal(r.code, 2, r.stderr);
      assert.match(r.stderr, /call\.a\.a\.a.*: nested deeper than 100 levels/);
      assert.doesNotMatch(r.stderr, /RangeError|internal error/);
    });

  test('1e400 and a lone surrogate', async () => {
    const inf = await run('echo', '{"query": "q", "sender_id": "u", "call": {"n": 1e400}}');
    assert.equal(inf.code, 2);
    assert.match(inf.stderr, /call\.n: Infinity is out of JSON's number range/);
    const lone = await run('echo', '{"query": "a\\ud800b", "sender_id": "u"}');
    assert.equal(lone.code, 2);
    assert.match(lone.stderr, /query: a lone UTF-16 surrogate/);
  });
});

describe('run: big payloads are carried whole; past the limit they are refused up front', () => {
  const big = (mib: number) =>
    JSON.stringify({
      query: 'q',
      sender_id: 'u',
      call: { metadata: { blob: 'x'.repeat(mib * 1024 * 1024) } },
    });

  for (const mib of [3, 12])
    test(`${mib} MiB returned unchanged: returned, exit 0, the deadline applies to the hook body`, async () => {
      const r = await run('echo', big(mib), ['--format', 'json']);
      assert.equal(r.code, 0, r.stderr);
      const json = JSON.parse(r.stdout);
      assert.equal(json.outcome, 'returned');
      assert.equal(json.payload.call.metadata.blob.length, mib * 1024 * 1024);
    });

  test('over 64 MiB: exit 2 naming the limit', async () => {
    const file = join(dir, 'huge.json');
    writeFileSync(file, big(65));
    const r = await hooksmith(['run', `${hookFile('echo')}::echo`, '--payload', file]);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /larger than 64 MiB, the limit for payloads/);
  });
});

describe('simulate: the exit code follows the turn', () => {
  const scenario = (name: string, body: string) => {
    const f = join(simAgent, `${name}.scenario.yaml`);
    writeFileSync(f, body);
    return f;
  };

  test('clean: 0; a misbehaving hook: 1; a timed-out observer that blocks after its cancellation: 1', async () => {
    const clean = join(root, 'examples/clean-agent/order-pizza.scenario.yaml');
    assert.equal((await hooksmith(['simulate', clean])).code, 0);
    const misbehaving = join(dir, 'misbehaving');
    mkdirSync(misbehaving);
    writeFileSync(
      join(misbehaving, 'hooks.py'),
      'from rasa.mantle.hooks import ModelResponsePayload, modify_model_response\n\n' +
        '@modify_model_response()\nasync def bad(r: ModelResponsePayload) -> ModelResponsePayload:\n    raise ValueError("x")\n',
    );
    writeFileSync(join(misbehaving, 's.scenario.yaml'), 'user: hi\ncompletions:\n  - text: hello\n');
    const m = await hooksmith(['simulate', join(misbehaving, 's.scenario.yaml')]);
    assert.equal(m.code, 1, m.stderr);
    const observer = await hooksmith([
      'simulate',
      scenario('observer', 'user: hi\ncompletions:\n  - text: hello\n'),
      '--format',
      'json',
    ]);
    assert.equal(observer.code, 1, observer.stderr);
    const events = JSON.parse(observer.stdout).events as { point: string; outcome?: string; hook?: string }[];
    assert.equal(events.find((e) => e.point === 'turn_started' && e.hook)?.outcome, 'timed-out');
    // Hooks after it are not blamed: the host was restarted for them.
    assert.ok(
      events.filter((e) => e.hook && e.point !== 'turn_started').every((e) => e.outcome !== 'timed-out'),
    );
  });

  test('malformed scenarios exit 2 naming the path: bounds, deep tool_args, an agent outside, an alias bomb', async () => {
    const cases: [string, RegExp][] = [
      ['user: hi\ncompletions:\n  - text: a\n    latency_ms: 2e9\n', /completions\[0\]\.latency_ms: Too big/],
      ['user: hi\nmax_iterations: 1e12\n', /max_iterations: Too big/],
      [
        `user: hi\ncompletions:\n  - tool_calls:\n      - tool_name: t\n        tool_args: ${'{a: '.repeat(5000)}1${'}'.repeat(5000)}\n`,
        /not valid YAML\n {2}nested too deeply to parse \(the limit for scenario values is 100 levels\) at line 5/,
      ],
      ['agent: ../..\nuser: hi\n', /outside the scenario's folder and the workspace/],
      ['agent: /\nuser: hi\n', /outside the scenario's folder and the workspace/],
      [
        'a: &a [x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]\nc: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b]\n' +
          'd: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c]\ne: &e [*d, *d, *d, *d, *d, *d, *d, *d, *d]\nuser: *e\n',
        /YAML aliases expand too far/,
      ],
    ];
    const deep = join(simAgent, 'deep.scenario.json');
    const args = '{"a": '.repeat(5000) + '1' + '}'.repeat(5000);
    writeFileSync(
      deep,
      `{"user": "hi", "completions": [{"tool_calls": [{"tool_name": "t", "tool_args": ${args}}]}]}`,
    );
    const d = await hooksmith(['simulate', deep], '', dir);
    assert.equal(d.code, 2, d.stderr);
    assert.match(
      d.stderr,
      /completions\[0\]\.tool_calls\[0\]\.tool_args\.a\.a.*nested deeper than 100 levels/,
    );
    for (const [i, [body, expected]] of cases.entries()) {
      const r = await hooksmith(['simulate', scenario(`bad${i}`, body)], '', dir);
      assert.equal(r.code, 2, `${body.slice(0, 60)}: exit ${r.code}\n${r.stderr}`);
      assert.match(r.stderr, expected);
      assert.doesNotMatch(r.stderr, /internal error|ReferenceError|RangeError/);
    }
  });

  test('--format json grows linearly with the iterations', async () => {
    const sizeFor = async (n: number) => {
      const completions = Array.from({ length: n }, (_, i) => ({
        text: `step ${i}`,
        tool_calls: [{ tool_name: 't', tool_args: { i } }],
      }));
      completions.push({ text: 'done', tool_calls: [] });
      const f = join(simAgent, `linear${n}.scenario.json`);
      writeFileSync(
        f,
        JSON.stringify({ user: 'hi', max_iterations: n + 1, completions, tools: { t: { value: 1 } } }),
      );
      const r = await hooksmith(['simulate', f, '--format', 'json'], '', dir);
      assert.equal(r.code, 1, r.stderr); // the stubborn observer at turn_started times out
      return r.stdout.length;
    };
    const [small, large] = [await sizeFor(40), await sizeFor(160)];
    const ratio = large / small;
    assert.ok(
      ratio < 4.6,
      `4x the iterations gave ${ratio.toFixed(2)}x the output (${small} → ${large} bytes)`,
    );
  });
});
