// Whose emulation a test result names (#45 item 5): in an agent holding Mantle hooks and a Cayu
// module, a scenario in which only Mantle hooks ran is no Cayu result and carries no
// "[Hooksmith's Cayu emulation (…)]" tag (text, the Testing view's status line, JSON); one in
// which a Cayu hook ran keeps it, and so does a Cayu-only agent's scenario in which none ran.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import type { CaseResult } from '../../runtime/testing/cases';
import { discoverCases } from '../../runtime/testing/discover-cases';
import { runCases } from '../../runtime/testing/run-cases';
import { formatTestJson, statusLine } from '../../runtime/testing/report';

const MANTLE = `from rasa.mantle.hooks import ModelResponsePayload, modify_model_response


@modify_model_response()
async def tidy(payload: ModelResponsePayload) -> ModelResponsePayload:
    return payload.model_copy(update={"text": (payload.text or "").strip()})
`;

const CAYU = `from cayu.observability import BeforeToolCallHookContext, RuntimeHook


class Audit(RuntimeHook):
    async def before_tool_call(self, context: BeforeToolCallHookContext) -> None:
        return None
`;

const TALK = `name: just talk
user: hello
completions:
  - text: "  Hi there  "
expect:
  transcript: { contains: Hi there }
`;

const TOOL = `name: with a tool
user: where is my order
completions:
  - tool_calls: [{ tool_name: find_order, tool_args: { id: o-1 } }]
  - text: It ships today
tools:
  find_order: { value: { status: shipped } }
expect:
  tool_called: { tool_name: find_order }
`;

let dir: string;
let results: CaseResult[];

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'hooksmith-played-by-'));
  const write = (rel: string, text: string) => {
    mkdirSync(join(dir, rel, '..'), { recursive: true });
    writeFileSync(join(dir, rel), text);
  };
  write('mixed/hooks.py', MANTLE);
  write('mixed/runtime_hooks.py', CAYU);
  write('mixed/talk.scenario.yaml', TALK);
  write('mixed/tool.scenario.yaml', TOOL);
  write('cayu-only/runtime_hooks.py', CAYU);
  write('cayu-only/talk.scenario.yaml', TALK);
  results = await runCases(discoverCases([dir]).cases);
});

after(() => rmSync(dir, { recursive: true, force: true }));

const find = (agent: string, name: string) => {
  const r = results.find((x) => x.case.file.includes(`${agent}/`) && x.case.name === name);
  assert.ok(r, `${agent}::${name} in ${results.map((x) => x.case.file).join(', ')}`);
  assert.equal(r.status, 'passed', JSON.stringify(r.expectations));
  return r;
};
const line = (r: CaseResult) => statusLine(r, (f) => f);
const json = (r: CaseResult) =>
  (
    JSON.parse(formatTestJson({ results: [r], malformed: [], durationMs: 0, relative: (f) => f })) as {
      cases: { playedBy?: string }[];
    }
  ).cases[0];

test('a mixed agent: a scenario in which only Mantle hooks ran is not tagged with the Cayu emulation', () => {
  const r = find('mixed', 'just talk');
  assert.ok(
    r.simulation?.events.some((e) => e.hook?.endsWith('hooks.py::tidy')),
    'the Mantle hook ran',
  );
  assert.match(
    r.simulation?.playedBy ?? '',
    /Cayu emulation/,
    'the simulation itself still says who played Cayu',
  );
  assert.doesNotMatch(line(r), /\[/);
  assert.equal(json(r).playedBy, undefined);
});

test('a mixed agent: a scenario in which a Cayu hook ran keeps the tag', () => {
  const r = find('mixed', 'with a tool');
  assert.match(line(r), /\[Hooksmith's Cayu emulation \([^)]+\)\]$/);
  assert.match(json(r).playedBy ?? '', /^Hooksmith's Cayu emulation/);
});

test('a Cayu-only agent: its scenario is a Cayu result even when no hook ran', () => {
  const r = find('cayu-only', 'just talk');
  assert.match(line(r), /\[Hooksmith's Cayu emulation \([^)]+\)\]$/);
});
