// The Mantle conformance corpus (#39 item 4): every case of test/fixtures/mantle-corpus, recorded
// from rasa-pro 3.21.0's own runner by scripts/record-mantle-corpus.py, played by Hooksmith in both
// modes — the emulation (an interpreter without rasa-pro: the host's shim and Hooksmith's rules) and
// real-engine mode (rasa-pro's runner plays each call) — with zero differences: each hook's outcome
// as the runner logs it, fail-closed or not, and the fields the engine reads back.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import {
  getPoint,
  mutableFieldNames,
  getPayloadType,
  IDENTITY_FIELD_NAMES,
  type PointId,
} from '../../runtime/catalogue';
import { createHookRunner, type HookRunner } from '../../runtime/engine/runner';
import type { RunResult } from '../../runtime/engine/api';
import { validatePayload } from '../../runtime/engine/payload-input';
import { ModuleChecker } from '../../runtime/engine/module-check';
import { pythonWith } from '../python-envs';
import { HARD_KILL_NOTE } from '../../runtime/engine/effects';

const CORPUS = resolve(__dirname, '..', 'fixtures', 'mantle-corpus');
const recorded = JSON.parse(readFileSync(join(CORPUS, 'recorded.json'), 'utf8')) as Record<string, Recorded>;
const TIMEOUT_MS = (recorded['$engine'] as unknown as { timeoutMs: number }).timeoutMs;

interface Recorded {
  registry: { error: string } | { modifiers: number; observers: number };
  modify?: {
    outcome: string;
    failClosed: boolean;
    controlFlow: string | null;
    payload: Record<string, unknown> | null;
  };
  executions?: Record<string, string>;
}
interface Case {
  point: PointId;
  payload: Record<string, unknown>;
  calls: { file: string; handler: string; lane: 'observe' | 'modify' }[];
}

const CASES = readdirSync(join(CORPUS, 'cases')).sort();

/** Hooksmith's outcome in the runner's words (rasa/mantle/hooks/types.py HookOutcome). */
const ENGINE_OUTCOME: Record<RunResult['outcome'], string> = {
  returned: 'success',
  'timed-out': 'timeout',
  'retry-model': 'retry',
  'hook-rejection': 'rejection',
  crashed: 'error',
  'invalid-return': 'error',
  'ignored-signal': 'error',
};

/** The fields the engine reads back (its call sites) and the identity it restores. */
function readBack(point: PointId, payload: Record<string, unknown> | null): Record<string, unknown> | null {
  if (!payload) return null;
  const type = getPayloadType(getPoint(point).payloadType);
  const keep = [...mutableFieldNames(type), ...IDENTITY_FIELD_NAMES];
  return Object.fromEntries(keep.map((k) => [k, payload[k]]));
}

async function differences(runner: HookRunner, name: string): Promise<string[]> {
  const root = join(CORPUS, 'cases', name);
  const c = JSON.parse(readFileSync(join(root, 'case.json'), 'utf8')) as Case;
  const want = recorded[name]!;
  const out: string[] = [];
  if ('error' in want.registry) return out; // judged by the check (below)
  const point = getPoint(c.point);
  const checked = validatePayload(point.payloadType, c.payload);
  assert.ok(checked.ok, `${name}: the corpus payload is valid`);
  for (const call of c.calls) {
    const target = {
      engine: 'mantle' as const,
      handler: call.handler,
      point,
      lane: call.lane,
      timeoutMs: TIMEOUT_MS,
    };
    const expected = want.executions?.[`${call.lane}:${call.handler}`];
    const play = async () => {
      const played = await runner.invoke(
        join(root, call.file),
        root,
        target,
        structuredClone(checked.payload),
      );
      runner.endRuns();
      return played;
    };
    let r = await play();
    // A host killed for holding its loop where the runner saw no timeout: the machine (2 shared
    // cores) stalled the host, not the hook. Played once more; a second kill is a difference.
    if (r.outcome === 'timed-out' && expected !== 'timeout' && r.notes.includes(HARD_KILL_NOTE))
      r = await play();
    const outcome = ENGINE_OUTCOME[r.outcome];
    if (outcome !== expected)
      out.push(`${name} ${call.handler}: outcome ${r.outcome} (${outcome}), the runner: ${expected}`);
    if (call.lane !== 'modify' || !want.modify) continue;
    const failClosed = r.payload === null && (outcome === 'error' || outcome === 'timeout');
    if (failClosed !== want.modify.failClosed)
      out.push(`${name}: fail-closed ${failClosed}, the runner: ${want.modify.failClosed}`);
    if (!want.modify.failClosed && (outcome === 'success' || outcome === 'error' || outcome === 'timeout')) {
      const ours = JSON.stringify(readBack(c.point, r.payload as Record<string, unknown> | null));
      const theirs = JSON.stringify(readBack(c.point, want.modify.payload));
      if (ours !== theirs) out.push(`${name}: payload ${ours}, the runner: ${theirs}`);
    }
  }
  return out;
}

const MODES = {
  emulation: pythonWith(['json'], { envs: ['tools'] }),
  real: pythonWith(['rasa.mantle.hooks'], { envs: ['engines'], onlyEnvs: true }),
};

for (const [mode, env] of Object.entries(MODES)) {
  test(
    `Mantle corpus, ${mode} mode: ${CASES.length} cases, 0 differences from rasa-pro's runner`,
    { skip: env.skip ?? false },
    async () => {
      const runner = createHookRunner({ python: env.python!, workspaceRoots: () => [CORPUS] });
      try {
        const found: string[] = [];
        for (const name of CASES) found.push(...(await differences(runner, name)));
        const probeCase = 'tool_call--modify--returns-unchanged';
        const probeInput = validatePayload('ToolCallPayload', {
          tool_name: 't',
          arguments: {},
          sender_id: 'u',
        });
        assert.ok(probeInput.ok);
        const probe = await runner.invoke(
          join(CORPUS, 'cases', probeCase, 'hooks.py'),
          join(CORPUS, 'cases', probeCase),
          {
            engine: 'mantle',
            handler: 'hook',
            point: getPoint('tool_call'),
            lane: 'modify',
            timeoutMs: TIMEOUT_MS,
          },
          probeInput.payload,
        );
        assert.match(
          probe.playedBy ?? '',
          mode === 'real' ? /^rasa-pro 3\.21\.0 hook runner$/ : /^Hooksmith's Mantle emulation \(/,
        );
        assert.deepEqual(found, []);
      } finally {
        await runner.dispose();
      }
    },
  );
}

test('Mantle corpus: two modify hooks on one point are what the check refuses; a hook imported into another module is not', async () => {
  const checker = new ModuleChecker();
  for (const name of CASES) {
    const want = recorded[name]!;
    const c = JSON.parse(readFileSync(join(CORPUS, 'cases', name, 'case.json'), 'utf8')) as Case;
    const root = join(CORPUS, 'cases', name);
    const files = c.calls.length ? c.calls.map((x) => x.file) : ['hooks.py'];
    const codes = (await Promise.all(files.map((f) => checker.check(join(root, f))))).flatMap((m) =>
      m.errors.map((e) => e.code),
    );
    const duplicate = codes.includes('duplicate-modify-hook');
    const refused = 'error' in want.registry && want.registry.error === 'DuplicateModifierError';
    assert.equal(
      duplicate,
      refused,
      `${name}: duplicate-modify-hook ${duplicate}, DuplicateModifierError ${refused}`,
    );
  }
});
