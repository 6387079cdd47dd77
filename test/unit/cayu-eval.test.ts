// Cayu eval corpora read as scenarios: the mapping of assertion kinds onto expect:, the
// refusals of what cayu 0.15's loader refuses in shape, and discovery (one case per corpus case).
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { test } from 'node:test';
import { cayuEvalCorpus, cayuEvalScenario, type CayuEvalCase } from '../../runtime/engine/cayu-eval';
import { CAYU_EVAL_KINDS, CAYU_EVAL_LINE } from '../../runtime/catalogue/cayu-eval-line';
import { discoverCases } from '../../runtime/testing/discover-cases';

const FIXTURES = resolve(__dirname, '..', 'fixtures', 'cayu-eval');
const CORPUS = join(FIXTURES, 'support.cayu-eval.json');
const corpus = () =>
  JSON.parse(readFileSync(CORPUS, 'utf8')) as Record<string, unknown> & { cases: CayuEvalCase[] };

const caseWith = (assertions: Record<string, unknown>[], messages = ['Hi']): CayuEvalCase =>
  ({
    id: 'c',
    revision: `sha256:${'0'.repeat(64)}`,
    suite_id: 's',
    name: 'a case',
    input: { messages: messages.map((text) => ({ role: 'user', text })) },
    assertions: assertions.map((a, i) => ({ id: `a${i}`, ...a })),
  }) as CayuEvalCase;

test('the catalogue holds the 20 assertion kinds of cayu 0.15, each with its file:line', () => {
  assert.equal(CAYU_EVAL_LINE.version, '0.15.0');
  assert.equal(CAYU_EVAL_KINDS.length, 20);
  for (const k of CAYU_EVAL_LINE.facts.assertionKinds)
    assert.match(k.source, /^cayu\/evals\/corpus\.py:\d+$/);
  assert.equal(CAYU_EVAL_LINE.loader.source, 'cayu/evals/corpus.py:2262');
});

test('deterministic kinds map onto expect:, the user messages onto one turn', () => {
  const played = cayuEvalScenario(
    caseWith(
      [
        { kind: 'root_status', expected: 'failed' },
        { kind: 'final_output_equals', expected: 'Done.' },
        { kind: 'final_output_contains', expected: 'Do' },
        { kind: 'tool_called', tool_name: 'a', min_count: 1, max_count: null },
        { kind: 'tool_called', tool_name: 'b', min_count: 0, max_count: 0 },
        { kind: 'tools_called_in_order', tool_names: ['a', 'c'] },
      ],
      ['one', 'two'],
    ),
    0,
  );
  assert.deepEqual(played.scenario, {
    name: 'a case',
    // One run's input, as cayu eval sends a case's messages (the agent answers once).
    user: ['one', 'two'],
    expect: {
      status: 'error',
      final_message: [{ equals: 'Done.' }, { contains: 'Do' }],
      tool_called: [{ tool_name: 'a' }, { tool_name: 'a' }, { tool_name: 'c' }],
      tool_not_called: [{ tool_name: 'b' }],
      order: [{ first: 'tool_call:a', then: 'tool_call:c' }],
    },
  });
  assert.deepEqual(played.notChecked, []);
  // Each final-output assertion is judged by its own check (they failed together when one
  // agent_message carried both).
  assert.deepEqual(
    played.checked.filter((c) => c.kind.startsWith('final_output')).map((c) => c.paths),
    [[['expect', 'final_message', 0]], [['expect', 'final_message', 1]]],
  );
});

test('what Hooksmith cannot check exactly is listed as not checked, never mapped', () => {
  const played = cayuEvalScenario(
    caseWith([
      { kind: 'tool_called', tool_name: 'a', min_count: 2, max_count: null },
      { kind: 'final_output_equals', expected: '{}', comparison: 'json' },
      { kind: 'tools_called_in_order', tool_names: ['a', 'a'] },
      { kind: 'model_judge' },
      { kind: 'max_tool_calls', maximum: 1 },
    ]),
    3,
  );
  assert.equal(played.scenario.expect, undefined);
  assert.deepEqual(
    played.notChecked.map((n) => n.kind),
    ['tool_called', 'final_output_equals', 'tools_called_in_order', 'model_judge', 'max_tool_calls'],
  );
});

test('a case without user messages cannot play', () => {
  const c = { ...caseWith([{ kind: 'root_status', expected: 'completed' }]), input: null };
  assert.match(cayuEvalScenario(c, 0).unplayable!, /no user messages/);
});

test('the corpus shape: the engine-made fixture is accepted, shape errors refused', () => {
  assert.ok(cayuEvalCorpus.safeParse(corpus()).success);
  const refused = (change: (d: ReturnType<typeof corpus>) => void) => {
    const d = corpus();
    change(d);
    return !cayuEvalCorpus.safeParse(d).success;
  };
  assert.ok(refused((d) => (d.schema_version = 3)));
  assert.ok(refused((d) => (d.cases[0]!.assertions[0]!.kind = 'tool_executed')));
  assert.ok(refused((d) => (d.cases[0]!.input!.messages = Array(17).fill({ role: 'user', text: 'x' }))));
  assert.ok(refused((d) => d.cases.reverse()));
  assert.ok(refused((d) => (d.cases[0]!.suite_id = 'elsewhere')));
  assert.ok(refused((d) => delete (d.cases[0] as Partial<CayuEvalCase>).input));
});

test('discovery: one skipped-until-a-model case per corpus case, on its own line', () => {
  const { cases, malformed } = discoverCases([FIXTURES]);
  assert.deepEqual(malformed, []);
  assert.deepEqual(
    cases.map((c) => [c.name, c.line, c.cayuEval?.index, /needs a model/.test(c.engineOnly ?? '')]),
    [
      ['greets the user', 3, 0, true],
      ['looks the customer up', 45, 1, true],
    ],
  );
  // Both messages start the one turn (one run's input); a single message stays a plain `user`.
  assert.deepEqual(cases[1]!.scenario!.user, ['Who am I?', 'And my orders?']);
  assert.equal(cases[1]!.scenario!.turns, undefined);
  assert.equal(cases[0]!.scenario!.user, 'Hello');
});

test('a *.cayu-eval.json that is no corpus of this line is malformed (exit 2), with the keys that are wrong', () => {
  const dir = mkdtempSync(join(tmpdir(), 'hooksmith-cayu-eval-bad-'));
  try {
    writeFileSync(join(dir, 'x.cayu-eval.json'), '{"schema_version": 3, "cases": []}');
    const { cases, malformed } = discoverCases([dir]);
    assert.deepEqual(cases, []);
    assert.equal(malformed[0]!.message, 'not a Cayu eval corpus');
    assert.ok(
      malformed[0]!.details.some((d) => /^schema_version: expected 4/.test(d)),
      malformed[0]!.details.join('\n'),
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
