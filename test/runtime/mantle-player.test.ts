// #39 item 6: the Mantle real runner is a registered Player (runtime/engine/mantle-real/): players.ts
// routes every Mantle hook call through it, and the label of who played comes from it. The mode is
// hooksmith.mantle.engine / --mantle-engine / HOOKSMITH_MANTLE_ENGINE, as Cayu's is; an unknown value is exit 2.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { test } from 'node:test';
import type { HostCall, HostFact, HostPort } from '../../runtime/engine/host-port';
import type { EngineMode } from '../../runtime/engine/engine-mode';
import { choosePlayer, mantleCalls, REAL_PLAYERS } from '../../runtime/engine/players';
import type { PlayRequest } from '../../runtime/engine/player';
import { RunInputError } from '../../runtime/engine/run-hook';
import type { AgentHooks } from '../../runtime/engine/agent-hooks';
import { pythonWith } from '../python-envs';

const returned = (extra: Partial<HostFact> = {}): HostFact =>
  ({ kind: 'returned', value: { kind: 'none' }, durationMs: 1, output: '', ...extra }) as HostFact;

/** A scripted host: records each call, answers `answer`. */
function scripted(answer: (call: HostCall) => HostFact): { host: HostPort; calls: HostCall[] } {
  const calls: HostCall[] = [];
  return {
    calls,
    host: {
      invoke: async (call) => (calls.push(call), answer(call)),
      dispose: async () => {},
    },
  };
}

const mantleCall: HostCall = {
  agentRoot: '/a',
  file: '/a/hooks.py',
  engine: 'mantle',
  function: 'hook',
  payloadType: 'ToolCallPayload',
  point: 'tool_call',
  lane: 'modify',
  payload: {},
  timeoutMs: 100,
};

/** The Mantle calls of `host` in `mode`, as a run's options give it (no module keeps it). */
const callsIn = (mode: EngineMode, host: HostPort, installed: boolean) =>
  mantleCalls(host, { mantle: async () => installed }, () => mode);

test('REAL_PLAYERS registers the Mantle player beside the Cayu one', () => {
  assert.deepEqual(
    REAL_PLAYERS.map((p) => [p.id, p.engine]),
    [
      ['cayu-real', 'cayu'],
      ['mantle-real', 'mantle'],
    ],
  );
});

test('auto with rasa-pro importable: the call asks for the runner and is labelled from the version the host reports', async () => {
  const { host, calls } = scripted(() => returned({ rasaPro: '3.21.0' }));
  const fact = await callsIn('auto', host, true).invoke(mantleCall);
  assert.equal(calls[0]!.mantleRunner, true);
  assert.equal(fact.playedBy, 'rasa-pro 3.21.0 hook runner');
});

test('auto without rasa-pro, or forced emulation: no runner asked, the emulation says why', async () => {
  for (const [mode, installed, why] of [
    ['auto', false, 'rasa-pro not installed'],
    ['emulation', true, 'forced: hooksmith.mantle.engine emulation'],
  ] as const) {
    const { host, calls } = scripted(() => returned());
    const fact = await callsIn(mode, host, installed).invoke(mantleCall);
    assert.equal(calls[0]!.mantleRunner, undefined, mode);
    assert.equal(fact.playedBy, `Hooksmith's Mantle emulation (${why})`);
  }
});

test('forced real: without rasa-pro, or when its runner does not import, a RunInputError (exit 2), never the emulation', async () => {
  const none = scripted(() => returned());
  await assert.rejects(
    callsIn('real', none.host, false).invoke(mantleCall),
    (e: unknown) => e instanceof RunInputError && /rasa\.mantle\.hooks is not importable/.test(e.message),
  );
  assert.equal(none.calls.length, 0, 'nothing ran');
  const noRunner = scripted(() => returned());
  await assert.rejects(
    callsIn('real', noRunner.host, true).invoke(mantleCall),
    /rasa\.mantle\.hooks\.runner does not import/,
  );
  // auto: the same answer is the emulation's, and says why.
  const fact = await callsIn('auto', scripted(() => returned()).host, true).invoke(mantleCall);
  assert.equal(
    fact.playedBy,
    "Hooksmith's Mantle emulation (rasa.mantle.hooks.runner does not import in this interpreter)",
  );
});

test('a Cayu call passes the Mantle player untouched', async () => {
  const { host, calls } = scripted(() => returned());
  const cayu: HostCall = { ...mantleCall, engine: 'cayu', className: 'H', phase: 'before_tool_call' };
  const fact = await callsIn('auto', host, true).invoke(cayu);
  assert.equal(calls[0]!.mantleRunner, undefined);
  assert.equal(fact.playedBy, undefined);
});

function hooks(mantle: boolean, cayu: boolean): AgentHooks {
  const hook = { file: '/a/hooks.py', agentRoot: '/a', label: 'hooks.py::h' } as never;
  return {
    observe: new Map(mantle ? [['tool_call', [hook]]] : []),
    modify: new Map(),
    hasCayu: cayu,
  } as unknown as AgentHooks;
}

test("choosePlayer: a Mantle agent with real models is still the Mantle player (its turn is Hooksmith's); a Cayu one is the emulation", async () => {
  const req = (h: AgentHooks, mantleEngine: EngineMode = 'auto') =>
    ({ hooks: h, models: {}, scenario: {}, source: 's', mantleEngine }) as unknown as PlayRequest;
  const installed = { mantle: async () => true, cayu: async () => true };
  const mantle = await choosePlayer(req(hooks(true, false)), installed);
  assert.equal(mantle.player.id, 'mantle-real');
  assert.equal(mantle.playedBy, undefined, "the Mantle label rides on each call, not on Cayu's playedBy");
  const cayu = await choosePlayer(req(hooks(false, true)), installed);
  assert.equal(cayu.player.id, 'emulation');
  assert.match(cayu.playedBy ?? '', /Cayu emulation \(a model plays/);
  const forced = await choosePlayer(req(hooks(true, false), 'emulation'), installed);
  assert.equal(forced.player.id, 'emulation');
  assert.equal(forced.playedBy, undefined);
});

// The CLI, as a user runs it: `hooksmith run` of a hook of examples/clean-agent.
const root = resolve(__dirname, '../..');
const cliPath = join(root, 'dist', 'cli.js');
const engines = pythonWith(['rasa.mantle.hooks'], { envs: ['engines'], onlyEnvs: true });
const plain = pythonWith(['json'], { envs: ['tools'] });

function hooksmith(args: string[], env: NodeJS.ProcessEnv = {}) {
  const { HOOKSMITH_MANTLE_ENGINE: _m, CI: _ci, ...base } = process.env;
  return spawnSync(process.execPath, [cliPath, ...args], {
    cwd: root,
    encoding: 'utf8',
    timeout: 120_000,
    env: { ...base, ...env },
  });
}

function payloadFile(): { file: string; done: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'hooksmith-mantle-player-'));
  const file = join(dir, 'call.json');
  writeFileSync(file, JSON.stringify({ tool_name: 'lookup', arguments: {}, sender_id: 'u' }));
  return { file, done: () => rmSync(dir, { recursive: true, force: true }) };
}

const HOOK = 'examples/clean-agent/hooks/tool_hooks.py::guard_orders';

test('--mantle-engine / HOOKSMITH_MANTLE_ENGINE with an unknown value is exit 2, as --cayu-engine is', () => {
  const bad = hooksmith(['run', HOOK, '--payload', '-', '--mantle-engine', 'both']);
  assert.equal(bad.status, 2, bad.stderr);
  assert.match(bad.stderr, /--mantle-engine takes auto\|real\|emulation, got "both"/);
  const env = hooksmith(['run', HOOK, '--payload', '-'], { HOOKSMITH_MANTLE_ENGINE: 'emulaton' });
  assert.equal(env.status, 2, env.stderr);
  assert.match(
    env.stderr,
    /HOOKSMITH_MANTLE_ENGINE \(--mantle-engine\) takes auto\|real\|emulation, got "emulaton"/,
  );
});

test(
  'hooksmith run of a clean-agent hook: the real runner plays it; --mantle-engine emulation forces the emulation',
  { skip: engines.skip ?? false },
  () => {
    const p = payloadFile();
    try {
      const real = hooksmith(['run', HOOK, '--payload', p.file, '--python', engines.python!]);
      assert.equal(real.status, 0, real.stderr);
      assert.match(real.stdout, /^played by rasa-pro 3\.21\.0 hook runner$/m);
      const emulated = hooksmith([
        'run',
        HOOK,
        '--payload',
        p.file,
        '--python',
        engines.python!,
        '--mantle-engine',
        'emulation',
      ]);
      assert.equal(emulated.status, 0, emulated.stderr);
      assert.match(
        emulated.stdout,
        /^played by Hooksmith's Mantle emulation \(forced: hooksmith\.mantle\.engine emulation\)$/m,
      );
    } finally {
      p.done();
    }
  },
);

test(
  '--mantle-engine real where rasa-pro is not importable is exit 2, naming why',
  { skip: plain.skip ?? false },
  () => {
    const p = payloadFile();
    try {
      const r = hooksmith([
        'run',
        HOOK,
        '--payload',
        p.file,
        '--python',
        plain.python!,
        '--mantle-engine',
        'real',
      ]);
      assert.equal(r.status, 2, r.stdout + r.stderr);
      assert.match(r.stderr, /hooksmith\.mantle\.engine is "real" but rasa\.mantle\.hooks is not importable/);
    } finally {
      p.done();
    }
  },
);
