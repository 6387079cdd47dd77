// Hooksmith's corpus verdicts against cayu 0.15's own loader (`load_eval_corpus`) on the same
// files: the engine-made fixture and shape errors written here. The one known difference is
// asserted as such: a case whose content no longer matches its sha256 revision only the engine
// refuses (Hooksmith checks the shape it plays, not content hashes).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, test } from 'node:test';
import { cayuEvalCorpus } from '../../runtime/engine/cayu-eval';
import { CAYU_EVAL_LINE } from '../../runtime/catalogue/cayu-eval-line';
import { pythonWith, skipUnless } from '../python-envs';

const found = pythonWith(['cayu.evals.corpus'], {
  envs: ['engines'],
  version: { dist: 'cayu', is: '0.15.0' },
});
const FIXTURE = resolve(__dirname, '..', 'fixtures', 'cayu-eval', 'support.cayu-eval.json');
const dir = mkdtempSync(join(tmpdir(), 'hooksmith-cayu-eval-line-'));
after(() => rmSync(dir, { recursive: true, force: true }));

type Doc = Record<string, unknown> & {
  cases: { suite_id: string; input: { messages: unknown[] } | null; assertions: { kind: string }[] }[];
};
const fixture = () => JSON.parse(readFileSync(FIXTURE, 'utf8')) as Doc;

const SAME: Record<string, (d: Doc) => unknown> = {
  'as the engine wrote it': () => undefined,
  'schema_version 3': (d) => (d.schema_version = 3),
  'no schema_version': (d) => delete d.schema_version,
  'an assertion kind of Mantle': (d) => (d.cases[0]!.assertions[0]!.kind = 'tool_executed'),
  '17 user messages': (d) => (d.cases[0]!.input!.messages = Array(17).fill({ role: 'user', text: 'x' })),
  'cases out of order': (d) => d.cases.reverse(),
  'a case of an unknown suite': (d) => (d.cases[0]!.suite_id = 'elsewhere'),
  'a case without input': (d) => delete (d.cases[0] as Partial<Doc['cases'][number]>).input,
  'no cases': (d) => (d.cases = []),
  'a corpus revision that is no sha256': (d) => (d.revision = 'v1'),
};

/** The engine's verdict on each file: true accepted, false refused. */
function engineVerdicts(python: string, files: string[]): boolean[] {
  const code = `import json, sys
from cayu.evals.corpus import load_eval_corpus
out = []
for f in sys.argv[1:]:
    try:
        load_eval_corpus(f); out.append(True)
    except Exception:
        out.append(False)
print(json.dumps(out))`;
  const r = spawnSync(python, ['-c', code, ...files], { encoding: 'utf8', timeout: 120_000 });
  assert.equal(r.status, 0, r.stderr);
  return JSON.parse(r.stdout) as boolean[];
}

const hooksmithAccepts = (file: string) =>
  cayuEvalCorpus.safeParse(JSON.parse(readFileSync(file, 'utf8'))).success;

test('Hooksmith accepts and refuses the corpora cayu 0.15 accepts and refuses', skipUnless(found), () => {
  const files = Object.entries(SAME).map(([name, change], i) => {
    const d = fixture();
    change(d);
    const file = join(dir, `probe-${i}.cayu-eval.json`);
    writeFileSync(file, JSON.stringify(d, null, 2));
    return { name, file };
  });
  const engine = engineVerdicts(
    found.python!,
    files.map((f) => f.file),
  );
  const rows = files.map((f, i) => [f.name, engine[i], hooksmithAccepts(f.file)]);
  assert.deepEqual(
    rows.filter(([, e, h]) => e !== h),
    [],
  );
  assert.deepEqual(rows[0], ['as the engine wrote it', true, true]);
  assert.equal(rows.filter(([, e]) => e === false).length, files.length - 1);
});

test(
  'known difference: an edited case whose revision no longer matches is refused by the engine only',
  skipUnless(found),
  () => {
    const d = fixture();
    d.cases[0]!.input!.messages = [{ role: 'user', text: 'Edited by hand' }];
    const file = join(dir, 'edited.cayu-eval.json');
    writeFileSync(file, JSON.stringify(d));
    assert.deepEqual([engineVerdicts(found.python!, [file])[0], hooksmithAccepts(file)], [false, true]);
  },
);

test(
  'the catalogue is what scripts/introspect-cayu-eval.py reads from cayu 0.15 now',
  skipUnless(found),
  () => {
    const script = resolve(__dirname, '..', '..', 'scripts', 'introspect-cayu-eval.py');
    const r = spawnSync(found.python!, [script, '--stdout'], { encoding: 'utf8', timeout: 120_000 });
    assert.equal(r.status, 0, r.stderr);
    assert.deepEqual(JSON.parse(r.stdout), CAYU_EVAL_LINE);
  },
);
