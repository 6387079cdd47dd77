// The Cayu conformance corpus (test/fixtures/cayu-corpus): each case's hooks simulated by
// Hooksmith, compared with what the real cayu runtime did (recorded.json, written by
// `npm run record:cayu`). Shim mode always; real-cayu mode where HOOKSMITH_CAYU_SRC names a cayu
// source folder (its dependencies on HOOKSMITH_CAYU_PYTHONPATH), skipped with a note otherwise.
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { after, test } from 'node:test';
import type { SimulationResult } from '../../runtime/engine/api';
import { createHookRunner } from '../../runtime/engine/runner';

const corpus = join(__dirname, '..', 'fixtures', 'cayu-corpus');
const recorded = JSON.parse(readFileSync(join(corpus, 'recorded.json'), 'utf8')) as {
  cayu: string;
  cases: Record<string, Outcome>;
};
const names = readdirSync(join(corpus, 'cases')).sort();

interface Case {
  batches: { id?: string; tool_name: string; tool_args: Record<string, unknown> }[][];
  tools: Record<string, Record<string, unknown>>;
  app_hooks?: string[];
  provider_error?: string;
}
interface Outcome {
  hooks?: Record<string, unknown>[];
  calls?: { id: string; tool_name: string; result: { content: string; is_error: boolean } | null }[];
  ran?: { tool_name: string; arguments: unknown }[];
  status?: string | null;
  ended_by: string | null;
}

const work = mkdtempSync(join(tmpdir(), 'hooksmith-cayu-corpus-'));
after(() => rmSync(work, { recursive: true, force: true }));

/** The recorder's ids: call_<batch>_<index> unless the case names one. */
const callIds = (c: Case) =>
  c.batches.flatMap((batch, b) => batch.map((call, i) => call.id ?? `call_${b}_${i}`));

function scenarioOf(c: Case): Record<string, unknown> {
  const ids = callIds(c);
  let n = 0;
  const completions: Record<string, unknown>[] = c.batches.map((batch) => ({
    tool_calls: batch.map((call) => ({ ...call, id: ids[n++] })),
  }));
  completions.push(c.provider_error ? { error: c.provider_error } : { text: 'done' });
  return { user: 'go', completions, tools: c.tools, cayu: { app_hooks: c.app_hooks ?? [] } };
}

const STATUS: Record<SimulationResult['status'], string> = {
  completed: 'completed',
  error: 'failed',
  cancelled: 'interrupted',
};

/** Hooksmith's simulation in the recorder's terms. */
function outcomeOf(c: Case, r: SimulationResult): Outcome {
  if (r.endedBy) return { ended_by: r.endedBy };
  const hooks = r.events
    .filter((e) => e.lane === 'phase' && e.hook)
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
  const calls = r.events
    .filter((e) => e.point === 'tool_result')
    .map((e, i) => {
      const p = e.after as Record<string, unknown>;
      return {
        id: callIds(c)[i],
        tool_name: String(p.tool_name),
        result: { content: String(p.value), is_error: p.is_error === true },
      };
    });
  return {
    hooks,
    calls,
    ran: (r.tools ?? []).map((t) => ({ tool_name: t.tool_name, arguments: t.arguments })),
    status: STATUS[r.status],
    ended_by: null,
  };
}

async function differences(env: Record<string, string | undefined>): Promise<string[]> {
  const saved = { ...process.env };
  Object.assign(process.env, env);
  const runner = createHookRunner();
  const out: string[] = [];
  try {
    for (const name of names) {
      const c = JSON.parse(readFileSync(join(corpus, 'cases', name, 'case.json'), 'utf8')) as Case;
      const agent = join(work, name);
      cpSync(join(corpus, 'cases', name), agent, { recursive: true });
      const got = outcomeOf(c, await runner.simulate(scenarioOf(c), agent));
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

test('shim mode: Hooksmith does what the real cayu runtime recorded, on every corpus case', async () => {
  const diff = await differences({ PYTHONPATH: '' });
  assert.deepEqual(diff, [], `${diff.length} of ${names.length} cases differ:\n${diff.join('\n')}`);
});

const cayuSrc = process.env.HOOKSMITH_CAYU_SRC;
test(
  'real-cayu mode: the same with the real cayu importable',
  cayuSrc ? {} : { skip: 'HOOKSMITH_CAYU_SRC is not set: no real cayu to import (shim mode covered above)' },
  async () => {
    const extra = process.env.HOOKSMITH_CAYU_PYTHONPATH;
    const diff = await differences({
      PYTHONPATH: [cayuSrc, ...(extra ? [extra] : [])].join(delimiter),
    });
    assert.deepEqual(diff, [], `${diff.length} of ${names.length} cases differ:\n${diff.join('\n')}`);
  },
);
