// The Cayu conformance corpus (test/fixtures/cayu-corpus): each case's hooks simulated by
// Hooksmith, compared with what the real cayu runtime did (recorded.json, written by
// `npm run record:cayu`), in three modes: the emulation without cayu importable (the shim) always;
// with the real cayu 0.3.0 importable (the tests' 'cayu-0.3' environment, test/python-envs.ts)
// the emulation forced with the real cayu importable, and real-engine mode (the runtime plays each
// case through runtime/host/python/_hooksmith_host/cayu_real.py). Each result must name who played
// it. Skipped with a note only where no real cayu is there.
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import type { SimulationResult } from '../../runtime/engine/api';
import { createHookRunner } from '../../runtime/engine/runner';
import { parseJson } from '../../runtime/json/lossless-json';
import { sitePackagesWith } from '../python-envs';

const corpus = join(__dirname, '..', 'fixtures', 'cayu-corpus');
const recorded = parseJson(readFileSync(join(corpus, 'recorded.json'), 'utf8')) as {
  cayu: string;
  cases: Record<string, Outcome>;
};
const names = readdirSync(join(corpus, 'cases')).sort();

type Batch = { id?: string; tool_name: string; tool_args: Record<string, unknown> }[];
interface Turn {
  batches: Batch[];
  provider_error?: string;
}
interface Case extends Partial<Turn> {
  /** A conversation: one session, run then resume per later turn (else one turn of `batches`). */
  turns?: Turn[];
  tools: Record<string, Record<string, unknown>>;
  app_hooks?: string[];
}
interface Outcome {
  hooks?: Record<string, unknown>[];
  calls?: { id: string; tool_name: string; result: { content: string; is_error: boolean } | null }[];
  ran?: { tool_name: string; arguments: unknown }[];
  status?: string | null;
  statuses?: (string | null)[];
  ended_by: string | null;
}

const work = mkdtempSync(join(tmpdir(), 'hooksmith-cayu-corpus-'));
after(() => rmSync(work, { recursive: true, force: true }));

const turnsOf = (c: Case): Turn[] =>
  c.turns ?? [{ batches: c.batches ?? [], provider_error: c.provider_error }];

/** The recorder's ids: call_<batch>_<index> (a conversation's: call_t<turn>_<batch>_<index>), unless given. */
const callIds = (c: Case) =>
  turnsOf(c).flatMap((turn, t) =>
    turn.batches.flatMap((batch, b) =>
      batch.map((call, i) => call.id ?? `call_${c.turns ? `t${t + 1}_` : ''}${b}_${i}`),
    ),
  );

function scenarioOf(c: Case): Record<string, unknown> {
  const ids = callIds(c);
  let n = 0;
  const turns = turnsOf(c).map((turn) => {
    const completions: Record<string, unknown>[] = turn.batches.map((batch) => ({
      tool_calls: batch.map((call) => ({ ...call, id: ids[n++] })),
    }));
    completions.push(turn.provider_error ? { error: turn.provider_error } : { text: 'done' });
    return { user: 'go', completions };
  });
  const common = { tools: c.tools, cayu: { app_hooks: c.app_hooks ?? [] } };
  return c.turns ? { ...common, turns } : { ...common, ...turns[0] };
}

const STATUS: Record<SimulationResult['status'], string> = {
  completed: 'completed',
  error: 'failed',
  cancelled: 'interrupted',
};

/** Hooksmith's simulation in the recorder's terms. */
function outcomeOf(c: Case, r: SimulationResult): Outcome {
  const ids = callIds(c);
  // The calls the run never reached have no saved result.
  const names = turnsOf(c).flatMap((t) => t.batches.flat().map((call) => call.tool_name));
  let calls: Outcome['calls'];
  if (r.savedResults) {
    // Real-engine mode: what the session's transcript kept, by call id (as the recorder reads it).
    const saved = new Map(r.savedResults.map((s) => [s.id, s]));
    calls = ids.map((id, i) => {
      const s = saved.get(id);
      return {
        id,
        tool_name: s?.tool_name ?? names[i]!,
        result: s ? { content: s.content, is_error: s.is_error } : null,
      };
    });
  } else {
    const results = r.events
      .filter((e) => e.point === 'tool_result')
      .map((e) => {
        const p = e.after as Record<string, unknown>;
        return {
          tool_name: String(p.tool_name),
          result: { content: String(p.value), is_error: p.is_error === true },
        };
      });
    calls = ids.map((id, i) =>
      results[i] ? { id, ...results[i] } : { id, tool_name: names[i]!, result: null },
    );
  }
  if (r.endedBy) return { ended_by: r.endedBy, calls };
  const hooks = r.events
    // A BaseException is no hook failure: the runtime writes neither hook.failed nor hook.completed.
    .filter((e) => e.lane === 'phase' && e.hook && !e.error?.baseException)
    .map((e) => {
      const className = e.hook!.split('::')[1]!.split('.')[0]!;
      const failed = e.outcome !== 'returned';
      const before = (e.before ?? {}) as Record<string, unknown>;
      return {
        phase: e.point,
        hook: e.hookName,
        scope: (c.app_hooks ?? []).includes(className) ? 'app' : 'agent',
        status: failed ? 'failed' : 'completed',
        ...(failed ? { error_type: e.error?.type } : {}),
        ...(typeof before.tool_name === 'string' ? { tool_name: before.tool_name } : {}),
      };
    });
  return {
    hooks,
    calls,
    ran: (r.tools ?? []).map((t) => ({ tool_name: t.tool_name, arguments: t.arguments })),
    status: STATUS[r.turns ? r.turns[r.turns.length - 1]!.status : r.status],
    ended_by: null,
    ...(c.turns ? { statuses: (r.turns ?? []).map((t) => STATUS[t.status]) } : {}),
  };
}

/** Each case's difference from the recording, and a case played by other than `playedBy` names. */
async function differences(env: Record<string, string | undefined>, playedBy: RegExp): Promise<string[]> {
  const saved = { ...process.env };
  for (const [k, v] of Object.entries(env))
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  const runner = createHookRunner();
  const out: string[] = [];
  try {
    for (const name of names) {
      const c = parseJson(readFileSync(join(corpus, 'cases', name, 'case.json'), 'utf8')) as Case;
      const agent = join(work, name);
      cpSync(join(corpus, 'cases', name), agent, { recursive: true });
      const r = await runner.simulate(scenarioOf(c), agent);
      if (!playedBy.test(r.playedBy ?? '')) out.push(`${name}: played by ${r.playedBy}`);
      const got = outcomeOf(c, r);
      try {
        assert.deepStrictEqual(got, recorded.cases[name]);
      } catch (err) {
        out.push(`${name}: ${(err as Error).message}`);
      }
    }
  } finally {
    await runner.dispose();
    process.env = saved;
  }
  return out;
}

test('every corpus case has a recorded outcome from the real cayu runtime', () => {
  assert.ok(names.length >= 40, `${names.length} cases`);
  assert.deepEqual(Object.keys(recorded.cases).sort(), names);
});

test('emulation mode without cayu importable: Hooksmith does what the real cayu runtime recorded, on every corpus case', async () => {
  const diff = await differences(
    { PYTHONPATH: '', HOOKSMITH_CAYU_ENGINE: undefined },
    /^Hooksmith's Cayu emulation \(cayu not installed\)$/,
  );
  assert.deepEqual(diff, [], `${diff.length} of ${names.length} cases differ:\n${diff.join('\n')}`);
});

// The older line's real runtime: the tests' 'cayu-0.3' environment on python3's PYTHONPATH, used
// only where python3 really imports it from there.
const cayu03 = sitePackagesWith('cayu-0.3', ['cayu'], { dist: 'cayu', is: '0.3.0' });
const noCayu = { skip: `no real cayu 0.3.0 to import (emulation mode covered above): ${cayu03.skip}` };
const withCayu = () => cayu03.path!;

test(
  'emulation mode with the real cayu importable (forced: HOOKSMITH_CAYU_ENGINE=emulation): the same',
  cayu03.path ? {} : noCayu,
  async () => {
    const diff = await differences(
      { PYTHONPATH: withCayu(), HOOKSMITH_CAYU_ENGINE: 'emulation' },
      /^Hooksmith's Cayu emulation \(forced: /,
    );
    assert.deepEqual(diff, [], `${diff.length} of ${names.length} cases differ:\n${diff.join('\n')}`);
  },
);

// Every corpus case is a scenario (one app, one session, run then resume per turn), so the real
// driver plays each one: a case the runtime did not play is a difference, not a skip.
test(
  'real-engine mode: the installed runtime plays every corpus case through the cayu-real driver and agrees',
  cayu03.path ? {} : noCayu,
  async () => {
    const diff = await differences(
      { PYTHONPATH: withCayu(), HOOKSMITH_CAYU_ENGINE: 'real' },
      /^cayu \d+\.\d+\.\d+\S* runtime$/,
    );
    assert.deepEqual(diff, [], `${diff.length} of ${names.length} cases differ:\n${diff.join('\n')}`);
  },
);
