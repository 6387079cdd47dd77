// The Cayu conformance corpus (test/fixtures/cayu-corpus): each case's hooks simulated by
// Hooksmith, compared with what the real cayu runtime did (recorded.json, written by
// `npm run record:cayu`), in three modes: the emulation without cayu importable (the shim) always;
// with the real cayu 0.3.0 importable (the tests' 'cayu-0.3' environment, test/python-envs.ts)
// the emulation forced with the real cayu importable, and real-engine mode (the runtime plays each
// case through runtime/host/python/_hooksmith_host/cayu_real.py). Each result must name who played
// it. Skipped with a note only where no real cayu is there.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import type { SimulationResult } from '../../runtime/engine/api';
import { useCayuLine } from '../../runtime/catalogue';
import { createHookRunner } from '../../runtime/engine/runner';
import { parseJson } from '../../runtime/json/lossless-json';
import { sitePackagesWith, testEnv } from '../python-envs';

const corpus = join(__dirname, '..', 'fixtures', 'cayu-corpus');
type Recording = { cayu: string; cases: Record<string, Outcome> };
/** recorded.json: cayu 0.3.0's recording; recorded-<version>.json: another version's (the recorder's). */
const recordingOf = (file: string) => parseJson(readFileSync(join(corpus, file), 'utf8')) as Recording;
const recorded = recordingOf('recorded.json');
const names = readdirSync(join(corpus, 'cases')).sort();
/** HOOKSMITH_CORPUS_ONLY=a,b: play only these cases (a quick look at a few; CI plays them all). */
const only = process.env.HOOKSMITH_CORPUS_ONLY?.split(',').filter(Boolean);
const played = only?.length ? names.filter((n) => only.includes(n)) : names;

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
  /** With ended_by: the session's status in the store once the run raised. */
  session?: string;
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
  // The run raised: the session as the runtime left it (running: not ended, not failed) and what it saved.
  if (r.endedBy) return { ended_by: r.endedBy, session: r.sessionLeft, calls };
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
async function differences(
  env: Record<string, string | undefined>,
  playedBy: RegExp,
  {
    python,
    against = recorded,
    cases = played,
    rewrite,
  }: { python?: string; against?: Recording; cases?: string[]; rewrite?: (hooks: string) => string } = {},
): Promise<string[]> {
  const saved = { ...process.env };
  for (const [k, v] of Object.entries(env))
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  const runner = createHookRunner(python ? { python } : {});
  const out: string[] = [];
  try {
    for (const name of cases) {
      const c = parseJson(readFileSync(join(corpus, 'cases', name, 'case.json'), 'utf8')) as Case;
      const agent = join(work, name);
      cpSync(join(corpus, 'cases', name), agent, { recursive: true });
      const hooks = join(agent, 'hooks.py');
      if (rewrite) writeFileSync(hooks, rewrite(readFileSync(hooks, 'utf8')));
      const r = await runner.simulate(scenarioOf(c), agent);
      if (!playedBy.test(r.playedBy ?? '')) out.push(`${name}: played by ${r.playedBy}`);
      const got = outcomeOf(c, r);
      try {
        assert.deepStrictEqual(got, against.cases[name]);
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

// A module written for one line (its hook-API import unguarded) and no cayu installed: the emulation
// follows the line the import names (runtime/engine/cayu-line-of-module.ts), on every case the two
// recordings tell apart.
const recorded015 = recordingOf('recorded-0.15.0.json');
const linesDiffer = played.filter((n) => {
  try {
    assert.deepStrictEqual(recorded015.cases[n], recorded.cases[n]);
    return false;
  } catch {
    return true;
  }
});
const GUARDED =
  /^try:[^\n]*\n\s+(from cayu\.observability import [^\n]+)\nexcept ImportError:[^\n]*\n\s+(from cayu import [^\n]+)\n/m;
for (const [line, pick, against, label] of [
  [
    'cayu 0.9 and newer',
    1,
    recorded015,
    /^Hooksmith's Cayu emulation \(cayu not installed; following cayu 0\.9 and newer, as hooks\.py imports its hook API\)$/,
  ],
  [
    'cayu 0.3',
    2,
    recorded,
    /^Hooksmith's Cayu emulation \(cayu not installed; following cayu 0\.3, as hooks\.py imports its hook API\)$/,
  ],
] as const)
  test(`no cayu installed, no line chosen, hooks importing the ${line} hook API unguarded: the emulation follows ${line}'s recording`, async () => {
    assert.ok(linesDiffer.length >= 10 || only?.length, `${linesDiffer.length} cases tell the lines apart`);
    const diff = await differences({ PYTHONPATH: '', HOOKSMITH_CAYU_ENGINE: undefined }, label, {
      against,
      cases: linesDiffer,
      rewrite: (src) => {
        const m = GUARDED.exec(src);
        assert.ok(m, 'the corpus module guards its hook-API import');
        return src.replace(GUARDED, `${m[pick]}\n`);
      },
    });
    assert.deepEqual(diff, [], `${diff.length} of ${linesDiffer.length} cases differ:\n${diff.join('\n')}`);
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

// cayu 0.15 as users install it (the tests' 'engines' environment, or HOOKSMITH_CAYU_PYTHON; the
// test decides by importing): the corpus recorded from 0.15 (recorded-0.15.0.json), both modes.
const python015 = process.env.HOOKSMITH_CAYU_PYTHON ?? testEnv('engines').python;
const probe015 = python015
  ? spawnSync(
      python015,
      ['-c', 'import importlib.metadata as m, cayu.observability.hooks; print(m.version("cayu"))'],
      {
        encoding: 'utf8',
        timeout: 120_000,
      },
    )
  : undefined;
const version015 = probe015?.status === 0 ? probe015.stdout.trim() : undefined;
const recording015 =
  version015 && existsSync(join(corpus, `recorded-${version015}.json`)) ? version015 : undefined;
const no015 = {
  skip: python015
    ? `${python015} has no cayu of the newer layout with a recording (${probe015?.stderr.trim().split('\n').pop() ?? ''})`
    : `no interpreter for cayu 0.15: ${testEnv('engines').reason} (or set HOOKSMITH_CAYU_PYTHON)`,
};

for (const mode of ['real', 'emulation'] as const)
  test(
    `cayu 0.15, ${mode === 'real' ? 'real-engine mode' : 'emulation forced (it follows the selected line: emulation/cayu-line-behaviour.ts)'}: every corpus case agrees with 0.15's recording`,
    recording015 ? {} : no015,
    async () => {
      const against = recordingOf(`recorded-${recording015!}.json`);
      useCayuLine('cayu-newer');
      try {
        const diff = await differences(
          { PYTHONPATH: '', HOOKSMITH_CAYU_ENGINE: mode },
          mode === 'real'
            ? new RegExp(`^cayu ${recording015!.replace(/\./g, '\\.')} runtime$`)
            : /^Hooksmith's Cayu emulation \(forced: /,
          { python: python015!, against },
        );
        assert.deepEqual(diff, [], `${diff.length} of ${names.length} cases differ:\n${diff.join('\n')}`);
      } finally {
        useCayuLine(undefined);
      }
    },
  );
