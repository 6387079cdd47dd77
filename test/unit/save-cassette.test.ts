// #43 item 5: the model step leaves what a run recorded on its result (models.unsaved); the command
// that owns the run writes it through the atomic writer (saveCassette), refused where the cassette
// path leads out of the agent.
import { strict as assert } from 'node:assert';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import type { SimulationResult } from '../../runtime/engine/api';
import { CassetteError } from '../../runtime/engine/model-step';
import { saveCassette } from '../../runtime/testing/save-cassette';

const dir = mkdtempSync(join(tmpdir(), 'hooksmith-save-cassette-'));
after(() => rmSync(dir, { recursive: true, force: true }));

function recorded(agent: string, text: string): SimulationResult {
  const file = join(agent, '.hooksmith', 'cassettes', 'card.jsonl');
  return {
    models: { record: 'missing', cassette: file, exchanges: [], unsaved: { file, text } },
  } as unknown as SimulationResult;
}

test('saveCassette writes the recorded text, makes the folders, marks the result saved and leaves no temporary file', () => {
  const agent = join(dir, 'a');
  mkdirSync(agent);
  const result = recorded(agent, '{"role":"agent"}\n');
  const file = saveCassette(result);
  assert.equal(file, join(agent, '.hooksmith', 'cassettes', 'card.jsonl'));
  assert.equal(readFileSync(file, 'utf8'), '{"role":"agent"}\n');
  assert.equal(result.models?.saved, true);
  assert.equal(
    result.models?.unsaved,
    undefined,
    'nothing left to write (and nothing extra in --format json)',
  );
  assert.deepEqual(readdirSync(join(agent, '.hooksmith', 'cassettes')), ['card.jsonl']);
  assert.equal(saveCassette(result), undefined, 'written once');
});

test('a run that recorded nothing writes nothing', () => {
  const result = { models: { record: 'none', exchanges: [] } } as unknown as SimulationResult;
  assert.equal(saveCassette(result), undefined);
  assert.equal(saveCassette({} as SimulationResult), undefined);
});

test('a cassette that links out of the agent is a CassetteError, and the file it leads to is kept', () => {
  const agent = join(dir, 'b');
  mkdirSync(join(agent, '.hooksmith', 'cassettes'), { recursive: true });
  const theirs = join(dir, 'theirs.jsonl');
  writeFileSync(theirs, 'THEIRS\n');
  symlinkSync(theirs, join(agent, '.hooksmith', 'cassettes', 'card.jsonl'));
  const result = recorded(agent, 'OURS\n');
  assert.throws(
    () => saveCassette(result),
    (err: Error) => err instanceof CassetteError && /leads outside the agent/.test(err.message),
  );
  assert.equal(readFileSync(theirs, 'utf8'), 'THEIRS\n');
  assert.ok(result.models?.unsaved, 'not marked saved');
  assert.ok(existsSync(theirs));
});
