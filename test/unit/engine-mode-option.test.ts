// #43 item 4: who plays Cayu phases, who plays Mantle hook calls and the Cayu safety stop travel as
// options (HookRunnerOptions.cayuEngine, .mantleEngine, .cayuSafetyStopS → each run, PlayRequest and
// Mantle call), not as module globals that the last caller set.
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { runnerHostOptions, takeHostOptions } from '../../runtime/cli/host-options';
import { CAYU_SAFETY_STOP_ENV, cayuSafetyStopMs } from '../../runtime/engine/cayu-safety-stop';
import { CAYU_ENGINE_ENV, cayuEngine, singleCallPlayedBy } from '../../runtime/engine/engine-mode';
import type { HostCall, HostFact } from '../../runtime/engine/host-port';
import { MANTLE_ENGINE_ENV, mantleEngine } from '../../runtime/engine/mantle-engine';
import { createHookRunnerWithHost } from '../../runtime/engine/runner';

function withEnv<T>(value: string | undefined, f: () => T, name = CAYU_ENGINE_ENV): T {
  const saved = process.env[name];
  if (value === undefined) delete process.env[name];
  else process.env[name] = value;
  try {
    return f();
  } finally {
    if (saved === undefined) delete process.env[name];
    else process.env[name] = saved;
  }
}

test('the mode given wins over HOOKSMITH_CAYU_ENGINE, which wins over auto; a word that is no mode is not taken', () => {
  withEnv('emulation', () => {
    assert.equal(cayuEngine('real'), 'real');
    assert.equal(cayuEngine(undefined), 'emulation');
    assert.equal(cayuEngine('sometimes'), 'emulation');
  });
  withEnv(undefined, () => assert.equal(cayuEngine(undefined), 'auto'));
});

test('the Mantle mode given wins over HOOKSMITH_MANTLE_ENGINE, which wins over auto', () => {
  withEnv(
    'emulation',
    () => {
      assert.equal(mantleEngine('real'), 'real');
      assert.equal(mantleEngine(undefined), 'emulation');
      assert.equal(mantleEngine('both'), 'emulation');
    },
    MANTLE_ENGINE_ENV,
  );
  withEnv(undefined, () => assert.equal(mantleEngine(undefined), 'auto'), MANTLE_ENGINE_ENV);
});

test('the safety stop given wins over HOOKSMITH_CAYU_SAFETY_STOP_S, which wins over 120 s; out of range is not taken', () => {
  withEnv(
    '7',
    () => {
      assert.equal(cayuSafetyStopMs(3), 3000);
      assert.equal(cayuSafetyStopMs(undefined), 7000);
      assert.equal(cayuSafetyStopMs(0), 7000);
      assert.equal(cayuSafetyStopMs(86_401), 7000);
    },
    CAYU_SAFETY_STOP_ENV,
  );
  withEnv(undefined, () => assert.equal(cayuSafetyStopMs(undefined), 120_000), CAYU_SAFETY_STOP_ENV);
});

test('engine-mode, mantle-engine and cayu-safety-stop keep no state: the choice is passed down, never set for the process', () => {
  for (const file of ['engine-mode.ts', 'mantle-engine.ts', 'cayu-safety-stop.ts']) {
    const source = readFileSync(join(__dirname, '../../runtime/engine', file), 'utf8');
    assert.doesNotMatch(source, /^(let|var) /m, file);
    assert.doesNotMatch(source, /export function configure/, file);
  }
  const hostOptions = readFileSync(join(__dirname, '../../runtime/cli/host-options.ts'), 'utf8');
  assert.doesNotMatch(hostOptions, /configure/);
});

test("the CLI's --cayu-engine reaches the runner's options; a phase call names the mode it was given", () => {
  assert.equal(runnerHostOptions({ cayuEngine: 'emulation' }).cayuEngine(), 'emulation');
  assert.equal(runnerHostOptions({}).cayuEngine(), undefined);
  assert.deepEqual(Object.keys(runnerHostOptions({ memoryLimitMb: 0 })).sort(), [
    'cayuEngine',
    'cayuSafetyStopS',
    'mantleEngine',
    'memoryLimitMb',
  ]);
  assert.match(singleCallPlayedBy(true, 'emulation'), /forced/);
  assert.doesNotMatch(singleCallPlayedBy(true, 'auto'), /forced/);
});

const returned = (extra: Partial<HostFact> = {}): HostFact =>
  ({ kind: 'returned', value: { kind: 'none' }, durationMs: 1, output: '', ...extra }) as HostFact;

test("the CLI's --mantle-engine and --cayu-safety-stop reach the runner: each call is played and budgeted as the options say, read at each call", async () => {
  const parsed = takeHostOptions(['--mantle-engine', 'emulation', '--cayu-safety-stop=3']);
  assert.ok(typeof parsed !== 'string');
  const host = parsed.options;
  const options = runnerHostOptions(host);
  const calls: HostCall[] = [];
  const runner = createHookRunnerWithHost(
    {
      invoke: async (call) => (calls.push(call), returned({ rasaPro: '3.21.0' })),
      dispose: async () => {},
    },
    () => [],
    undefined,
    {},
    { safetyStopS: options.cayuSafetyStopS },
    { installed: async () => true, engine: options.mantleEngine },
  );
  const mantle = {
    engine: 'mantle',
    handler: 'h',
    point: { id: 'tool_call', payloadType: 'ToolCallPayload' },
    lane: 'modify',
    timeoutMs: 100,
  } as never;
  const phase = {
    engine: 'cayu',
    handler: 'H.before_tool_call',
    className: 'H',
    hookName: 'h',
    phase: 'before_tool_call',
    timeoutMs: 1,
  } as never;
  const saved = [process.env[MANTLE_ENGINE_ENV], process.env[CAYU_SAFETY_STOP_ENV]];
  // Below the options: they must not be what decides while an option is given.
  process.env[MANTLE_ENGINE_ENV] = 'real';
  process.env[CAYU_SAFETY_STOP_ENV] = '9';
  try {
    const played = await runner.invoke('/a/hooks.py', '/a', mantle, {});
    assert.equal(calls[0]!.mantleRunner, undefined, 'forced emulation: the runner was not asked');
    assert.match(played.playedBy ?? '', /forced: hooksmith\.mantle\.engine emulation/);
    await runner.invoke('/a/hooks.py', '/a', phase, {});
    assert.equal(calls[1]!.timeoutMs, 3000, 'the option, not the env (9 s) nor the located budget');
    // Read at each call: a changed option applies at once; none given, the env decides.
    host.mantleEngine = 'auto';
    host.cayuSafetyStopS = undefined;
    await runner.invoke('/a/hooks.py', '/a', mantle, {});
    assert.equal(calls[2]!.mantleRunner, true, 'auto with rasa-pro importable: its runner plays');
    await runner.invoke('/a/hooks.py', '/a', phase, {});
    assert.equal(calls[3]!.timeoutMs, 9000, 'no option: HOOKSMITH_CAYU_SAFETY_STOP_S');
    assert.equal(runner.safetyStopMs(), 9000);
  } finally {
    runner.endRuns();
    for (const [name, value] of [
      [MANTLE_ENGINE_ENV, saved[0]],
      [CAYU_SAFETY_STOP_ENV, saved[1]],
    ] as const) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  }
});
