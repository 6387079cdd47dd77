// The seed suite's two regressions (#25), through the built CLI with a real python3 (the host's
// shim of rasa.mantle.hooks): the quiet calls' model request/response events carry the quiet
// call's name as their context (rephrase, confirm_rephrase, set_fields) in simulate's JSON, text
// and timeline, with a modify hook or observers only (#34 item 10); a crashing or timing-out
// modify_knowledge_query gives the model the one safe empty-result note retrieval finding nothing
// gives (spec "Knowledge search": "the same safe empty-result note used when retrieval fails"),
// and never runs the results hooks.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { SAFE_EMPTY_RESULT_NOTE } from '../../runtime/catalogue';
import type { SimulationResult } from '../../runtime/engine/api';
import { renderTimelineHtml } from '../../runtime/ui/timeline-html';

const root = join(__dirname, '..', '..');
const cli = join(root, 'dist', 'cli.js');
let dir: string;

const MODEL_HOOKS = `from rasa.mantle.hooks import ModelRequestPayload, ModelResponsePayload, modify_model_response, on_model_request


@on_model_request()
async def watch(payload: ModelRequestPayload) -> None:
    return None


@modify_model_response()
async def tidy(payload: ModelResponsePayload) -> ModelResponsePayload:
    return payload
`;

// Observers only (#34 item 10): they end after the turn has moved on, and keep their quiet call.
const OBSERVER_HOOKS = `import asyncio

from rasa.mantle.hooks import ModelRequestPayload, ModelResponsePayload, on_model_request, on_model_response


@on_model_request()
async def watch(payload: ModelRequestPayload) -> None:
    await asyncio.sleep(0.02)


@on_model_response()
async def seen(payload: ModelResponsePayload) -> None:
    return None
`;

const knowledgeHooks = (body: string, timeout = '') => `import asyncio

from rasa.mantle.hooks import (
    KnowledgeQueryPayload,
    KnowledgeResultsPayload,
    modify_knowledge_query,
    on_knowledge_results,
)


@modify_knowledge_query(${timeout})
async def rewrite(payload: KnowledgeQueryPayload) -> KnowledgeQueryPayload:
${body}


@on_knowledge_results()
async def seen(payload: KnowledgeResultsPayload) -> None:
    return None
`;

const QUIET_SCENARIO = `user: hello
completions:
  - quiet: rephrase
    text: rephrased
  - quiet: confirm_rephrase
    text: confirmed
  - quiet: set_fields
    text: filled
  - text: done
`;

const knowledgeScenario = (passages: string) => `user: refunds?
knowledge:
  passages: ${passages}
completions:
  - tool_calls:
      - {tool_name: search_knowledge, tool_args: {query: "refund policy"}}
  - text: done
`;

const AGENTS: Record<string, [string, string]> = {
  quiet: [MODEL_HOOKS, QUIET_SCENARIO],
  observers: [OBSERVER_HOOKS, QUIET_SCENARIO],
  crash: [
    knowledgeHooks('    raise RuntimeError("index down")'),
    knowledgeScenario('[{text: "Refunds take 5 days.", scope: faq, source: faq.md}]'),
  ],
  slow: [
    knowledgeHooks('    await asyncio.sleep(5)\n    return payload', 'timeout_ms=100'),
    knowledgeScenario('[{text: "Refunds take 5 days.", scope: faq, source: faq.md}]'),
  ],
  empty: [knowledgeHooks('    return payload'), knowledgeScenario('[]')],
};

before(() => {
  if (!existsSync(cli))
    spawnSync(process.execPath, [join(root, 'scripts/build.mjs')], { cwd: root, stdio: 'inherit' });
  dir = mkdtempSync(join(tmpdir(), 'hooksmith-quiet-'));
  for (const [name, [hooks, scenario]] of Object.entries(AGENTS)) {
    mkdirSync(join(dir, name));
    writeFileSync(join(dir, name, 'hooks.py'), hooks);
    writeFileSync(join(dir, name, 'turn.scenario.yaml'), scenario);
  }
});
after(() => rmSync(dir, { recursive: true, force: true }));

function simulate(agent: string, format: 'json' | 'text') {
  const r = spawnSync(
    process.execPath,
    [cli, 'simulate', `${agent}/turn.scenario.yaml`, '--format', format],
    {
      cwd: dir,
      encoding: 'utf8',
      env: { ...process.env, HOOKSMITH_NO_CACHE: '1', PYTHONPATH: '' },
    },
  );
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** `code`: 0 when no hook misbehaved, 1 when one did (a crash, a timeout). */
function simulation(agent: string, code = 0): SimulationResult {
  const r = simulate(agent, 'json');
  assert.equal(r.code, code, r.stderr + r.stdout);
  return JSON.parse(r.stdout) as SimulationResult;
}

test('quiet calls: every request/response event names its quiet call (JSON, text, timeline)', () => {
  const sim = simulation('quiet');
  const modelEvents = sim.events.filter((e) => e.point === 'model_request' || e.point === 'model_response');
  assert.deepEqual(
    modelEvents.map((e) => `${e.context} ${e.point} ${e.hook}`),
    [
      'rephrase model_request hooks.py::watch',
      'rephrase model_response hooks.py::tidy',
      'confirm_rephrase model_request hooks.py::watch',
      'confirm_rephrase model_response hooks.py::tidy',
      'set_fields model_request hooks.py::watch',
      'set_fields model_response hooks.py::tidy',
      'iteration 0 model_request hooks.py::watch',
      'iteration 0 model_response hooks.py::tidy',
    ],
  );
  assert.ok(modelEvents.every((e) => e.outcome === 'returned'));
  assert.equal(sim.iterations, 1, 'quiet calls start no iteration');
  const text = simulate('quiet', 'text');
  assert.equal(text.code, 0, text.stderr);
  for (const quiet of ['rephrase', 'confirm_rephrase', 'set_fields'])
    assert.match(
      text.stdout,
      new RegExp(`^\\s+\\d+  ${quiet}\\s+model_response\\s+modify\\s+hooks\\.py::tidy`, 'm'),
    );
  // The timeline: a group header per quiet call, in the order they ran, before the main loop's
  // (incoming_message fires first: rasa-pro 3.21 invokes it).
  const html = renderTimelineHtml(sim, { nonce: 'n', cspSource: 'c' });
  const groups = [...html.matchAll(/<li class="group" role="presentation">([^<]*)<\/li>/g)].map((m) => m[1]);
  assert.deepEqual(groups, [
    'turn',
    'incoming',
    'rephrase',
    'confirm_rephrase',
    'set_fields',
    'iteration 0',
    'turn',
  ]);
});

test('quiet calls with observers only on the model points: each event keeps its quiet call or iteration, not "turn"', () => {
  const sim = simulation('observers');
  const modelEvents = sim.events.filter((e) => e.point === 'model_request' || e.point === 'model_response');
  assert.deepEqual(
    modelEvents.map((e) => `${e.context} ${e.point} ${e.hook}`),
    [
      'rephrase model_request hooks.py::watch',
      'rephrase model_response hooks.py::seen',
      'confirm_rephrase model_request hooks.py::watch',
      'confirm_rephrase model_response hooks.py::seen',
      'set_fields model_request hooks.py::watch',
      'set_fields model_response hooks.py::seen',
      'iteration 0 model_request hooks.py::watch',
      'iteration 0 model_response hooks.py::seen',
    ],
  );
  assert.ok(modelEvents.every((e) => e.outcome === 'returned' && e.offTurnPath));
  const html = renderTimelineHtml(sim, { nonce: 'n', cspSource: 'c' });
  const groups = [...html.matchAll(/<li class="group" role="presentation">([^<]*)<\/li>/g)].map((m) => m[1]);
  assert.deepEqual(groups, [
    'turn',
    'incoming',
    'rephrase',
    'confirm_rephrase',
    'set_fields',
    'iteration 0',
    'turn',
  ]);
});

for (const [agent, how] of [
  ['crash', 'crashed'],
  ['slow', 'timed-out'],
] as const) {
  test(`a knowledge query hook that ${how === 'crashed' ? 'crashes' : 'times out'}: the model gets the safe empty-result note`, () => {
    const sim = simulation(agent, 1);
    const query = sim.events.find((e) => e.point === 'knowledge_query' && e.hook);
    assert.equal(query?.outcome, how, JSON.stringify(query));
    assert.match(query!.effect ?? '', new RegExp(SAFE_EMPTY_RESULT_NOTE.replace('.', '\\.')));
    assert.equal(
      sim.events.filter((e) => e.point === 'knowledge_results').length,
      0,
      'the search was skipped',
    );
    const result = sim.events.find((e) => e.point === 'tool_result');
    assert.equal((result?.before as { value?: unknown }).value, SAFE_EMPTY_RESULT_NOTE);
    assert.ok(
      sim.transcript.some((t) => t.role === 'tool' && t.text.endsWith(`→ ${SAFE_EMPTY_RESULT_NOTE}`)),
    );
    const note = sim.transcript.find(
      (t) => t.role === 'engine' && /knowledge query hook failed/.test(t.text),
    );
    assert.ok(note?.text.includes(`"${SAFE_EMPTY_RESULT_NOTE}"`), note?.text);
    assert.equal(sim.status, 'completed');
  });
}

test('retrieval finding nothing gives the model the very same note', () => {
  const sim = simulation('empty');
  assert.ok(
    sim.events.some((e) => e.point === 'knowledge_results' && e.hook),
    'the search ran',
  );
  const result = sim.events.find((e) => e.point === 'tool_result');
  assert.equal((result?.before as { value?: unknown }).value, SAFE_EMPTY_RESULT_NOTE);
});
