// `final_message` (Cayu's final output: the last bot message with text, cayu/evals/trajectory.py:1522)
// checked by `hooksmith test` over the built CLI with a real python3: in a conversation only the
// last bot message counts (where `agent_message` takes any), in a turn that turn's last; a list
// gives each item its own result, so a Cayu corpus's final_output_equals and
// final_output_contains pass or fail on their own.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { readCaseFile } from '../../runtime/testing/discover-cases';
import { plannedExpectations } from '../../runtime/testing/plan';

const cli = join(__dirname, '..', '..', 'dist', 'cli.js');
let dir: string;

const HOOKS = `from rasa.mantle.hooks import TurnFinishedPayload, on_turn_finished


@on_turn_finished()
async def mark_end(payload: TurnFinishedPayload) -> None:
    return None
`;

const CONVERSATION = `name: greet then leave
turns:
  - user: hi
    completions: [{ text: "Hello!" }]
    expect:
      final_message: { equals: "Hello!" }
  - user: bye
    completions: [{ text: "Bye for now!" }]
expect:
  agent_message: { contains: Hello }
  final_message:
    - { contains: Bye }
    - { equals: "Bye!" }
    - { contains: Hello }
    - { not_contains: Hello, matches: "now!$" }
`;

interface Report {
  cases: { expectations: { name: string; passed: boolean; line: number; actual: string }[] }[];
}

before(() => {
  dir = mkdtempSync(join(tmpdir(), 'hooksmith-final-message-'));
  writeFileSync(join(dir, 'hooks.py'), HOOKS);
  writeFileSync(join(dir, 'leave.scenario.yaml'), CONVERSATION);
});
after(() => rmSync(dir, { recursive: true, force: true }));

test('final_message: the last bot message only, each list item its own result at its line', () => {
  const r = spawnSync(process.execPath, [cli, 'test', dir, '--format', 'json'], { encoding: 'utf8' });
  assert.equal(r.status, 1, r.stdout + r.stderr);
  const results = (JSON.parse(r.stdout) as Report).cases[0]!.expectations;
  assert.deepEqual(
    results.map((e) => [e.name, e.passed, e.line]),
    [
      ['turn 1: final_message', true, 6],
      ['agent_message', true, 10],
      ['final_message', true, 12],
      ['final_message', false, 13],
      ['final_message', false, 14],
      ['final_message', true, 15],
    ],
  );
  assert.equal(results[3]!.actual, 'Bye for now!');
});

test("the Testing view's items tell a list's final_message checks apart by what each checks", () => {
  const read = readCaseFile(join(dir, 'leave.scenario.yaml'));
  assert.ok(Array.isArray(read), JSON.stringify(read));
  assert.deepEqual(
    plannedExpectations(read[0]!).map((p) => [p.label, p.line]),
    [
      ['turn 1: final_message equals "Hello!"', 6],
      ['agent_message', 10],
      ['final_message contains "Bye"', 12],
      ['final_message equals "Bye!"', 13],
      ['final_message contains "Hello"', 14],
      ['final_message matches /now!$/ and does not contain "Hello"', 15],
    ],
  );
});
