// #45 items 1-3, 5: in the editor a changed model request stops with its difference (no call to the
// provider) and the advice names the editor's action and setting, never a CLI flag; the CLI keeps
// its words and records over a changed request under --record missing. The coverage tables have a
// list layout that wraps readably in a narrow panel; the timeline says "1 turn" and puts a cassette
// that cannot answer first, with Re-record.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { startChatServer, type ChatServer } from './fixtures/chat-server';
import { CassetteMismatch, ModelPlayer } from '../../runtime/models/model-player';
import { cassetteText, checkCassettePath } from '../../runtime/models/cassette';
import { chatRequest } from '../../runtime/models/chat-wire';
import { modelConfig } from '../../runtime/models/model-config';
import { recordAdvice, reRecordAdvice } from '../../runtime/models/advice';
import { needsModel } from '../../runtime/engine/model-step';
import { needsMantleModel, NEEDS_MANTLE } from '../../runtime/engine/mantle-scenario';
import { renderTimelineHtml } from '../../runtime/ui/timeline-html';
import type { SimulationResult } from '../../runtime/engine/api';
import { formatCoverageText } from '../../runtime/testing/coverage/coverage-report';
import { LineCoverage } from '../../runtime/testing/coverage/line-coverage';
import type { AgentHookCoverage } from '../../runtime/testing/coverage/hook-coverage';

const KEY_ENV = 'HOOKSMITH_WORDS_KEY';
let dir: string;
let server: ChatServer;

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'hooksmith-words-'));
  server = await startChatServer(() => ({ text: 'fresh answer' }));
});
after(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

const config = () => modelConfig.parse({ base_url: server.baseUrl, model: 'm', api_key_env: KEY_ENV });
const request = (prompt: string) =>
  chatRequest(config(), { messages: [{ role: 'system', content: prompt }] }, []);

const writeCassetteText = (file: string, entries: Parameters<typeof cassetteText>[0]) =>
  writeFileSync(file, cassetteText(entries));

/** A cassette holding one exchange recorded for the prompt RULE-V1. */
function recorded(name: string): string {
  // Where cassetteFile puts it: <agent>/.hooksmith/cassettes/ (checkCassettePath makes the folders).
  const file = join(dir, '.hooksmith', 'cassettes', `${name}.jsonl`);
  checkCassettePath(file, true);
  writeCassetteText(file, [
    {
      role: 'agent',
      turn: 1,
      request: request('RULE-V1'),
      response: { message: { role: 'assistant', content: 'old answer' } },
      latency_ms: 5,
    },
  ]);
  return file;
}

const noFlag = (text: string) => assert.doesNotMatch(text, /--[a-z]/, `no CLI flag in: ${text}`);

test('the editor: a changed request under missing stops with its difference and calls nobody', async () => {
  const file = recorded('changed');
  const env = { [KEY_ENV]: 'sk-set' };
  const player = new ModelPlayer({ mode: 'missing', file, env, keepRecorded: true, audience: 'editor' });
  const seen = server.seen.length;
  await assert.rejects(
    () => player.exchange('agent', 1, config(), request('RULE-V2')),
    (err: Error) => {
      assert.ok(err instanceof CassetteMismatch);
      assert.match(err.message, /messages\[0\]\.content: recorded "RULE-V1", now "RULE-V2"/);
      assert.match(err.message, /Re-record calls the model afresh/);
      assert.doesNotMatch(err.message, /not set/, 'the key is set: nothing said of it');
      noFlag(err.message);
      return true;
    },
  );
  assert.equal(server.seen.length, seen, 'no request reached the provider');
  assert.equal(player.recording(), undefined, 'the cassette is left as it was');
});

test('the editor: a request the cassette lacks is still recorded under missing', async () => {
  const file = join(dir, '.hooksmith', 'cassettes', 'new.jsonl');
  const player = new ModelPlayer({ mode: 'missing', file, env: { [KEY_ENV]: 'sk' }, keepRecorded: true });
  const seen = server.seen.length;
  const ex = await player.exchange('agent', 1, config(), request('RULE-V1'));
  assert.equal(ex.source, 'called');
  assert.equal(server.seen.length, seen + 1);
});

test('the CLI: --record missing records over a changed request, and its advice names the flag', async () => {
  const file = recorded('cli');
  const player = new ModelPlayer({ mode: 'missing', file, env: { [KEY_ENV]: 'sk' } });
  const ex = await player.exchange('agent', 1, config(), request('RULE-V2'));
  assert.equal(ex.source, 'called');
  const none = new ModelPlayer({ mode: 'none', file, env: {} });
  await assert.rejects(
    () => none.exchange('agent', 1, config(), request('RULE-V3')),
    /re-record with --record missing; it needs the model's key in HOOKSMITH_WORDS_KEY, which is not set in the environment\)/,
  );
});

test('a missing exchange: the editor names Re-record, hooksmith.modelRecord and the unset variable', () => {
  const editor = recordAdvice(config(), {}, 'editor');
  assert.match(editor, /Re-record/);
  assert.match(editor, /hooksmith\.modelRecord/);
  assert.match(
    editor,
    /it needs the model's key in HOOKSMITH_WORDS_KEY, which is not set in VS Code's environment/,
  );
  noFlag(editor);
  noFlag(reRecordAdvice(config(), {}, 'editor'));
  assert.match(recordAdvice(config(), {}, 'cli'), /--record missing/);
});

test('"needs a model" names the hooksmith.model setting in the editor, --model in the CLI', () => {
  for (const text of [needsModel('editor'), needsMantleModel('editor')]) {
    assert.match(text, /the hooksmith\.model setting/);
    noFlag(text);
  }
  assert.match(needsModel('cli'), /--model/);
  assert.equal(NEEDS_MANTLE, needsMantleModel('cli'));
});

const SEC = { nonce: 'n', cspSource: 'vscode-resource:' };

function conversation(turns: number, failure?: string): SimulationResult {
  return {
    scenario: '/a/x.scenario.yaml',
    status: 'error',
    events: [],
    transcript: [],
    turns: Array.from({ length: turns }, (_, i) => ({
      turn: i + 1,
      name: `turn ${i + 1}`,
      user: 'hi',
      status: 'completed',
      iterations: 1,
    })),
    ...(failure
      ? {
          models: {
            agent: { provider: 'openai-compatible', model: 'm', base_url: 'http://x' },
            record: 'missing',
            exchanges: [],
            failure,
          },
        }
      : {}),
  } as unknown as SimulationResult;
}

test('the timeline: "1 turn", "2 turns"; a cassette that cannot answer comes first, with Re-record', () => {
  assert.match(renderTimelineHtml(conversation(1), SEC), /Simulated conversation \(1 turn\)/);
  assert.match(renderTimelineHtml(conversation(2), SEC), /Simulated conversation \(2 turns\)/);
  const html = renderTimelineHtml(conversation(1, 'request #1 differs: recorded "A", now "B"'), {
    ...SEC,
    rerecord: true,
  });
  const alert = html.indexOf('role="alert"');
  assert.ok(alert > 0 && alert < html.indexOf('id="tl-h"'), 'the alert stands before the timeline');
  assert.match(
    html,
    /The cassette cannot answer:<\/b> request #1 differs: recorded &#34;A&#34;, now &#34;B&#34;/,
  );
  assert.match(html, /data-action="rerecord"/);
  assert.doesNotMatch(renderTimelineHtml(conversation(1, 'x'), SEC), /data-action="rerecord"/);
});

test('coverage: the list layout has no padded columns and names every hook and file', () => {
  const hook = (name: string, cases: number) => ({
    hook: `hooks/registration.py::${name}`,
    file: '/a/hooks/registration.py',
    point: 'before_tool_call',
    cases,
    outcomes: cases ? { returned: cases } : {},
  });
  const hooks = [
    {
      agentRoot: '/a',
      exercised: 1,
      percent: 50,
      hooks: [hook('a_rather_long_handler_name_of_a_class', 2), hook('never_run', 0)],
      unfired: [],
    },
  ] as unknown as AgentHookCoverage[];
  const text = formatCoverageText({ hooks, lines: new LineCoverage() }, (f) => f, 'list');
  const lines = text.split('\n');
  assert.ok(
    lines.includes(
      '  ✓ hooks/registration.py::a_rather_long_handler_name_of_a_class (before_tool_call): 2 cases, returned 2',
    ),
    text,
  );
  assert.ok(lines.includes('  ✗ hooks/registration.py::never_run (before_tool_call): NOT EXERCISED'), text);
  assert.ok(!lines.some((l) => /\S {3,}\S/.test(l)), `no column padding:\n${text}`);
  // The terminal's table stays as it was.
  assert.match(
    formatCoverageText({ hooks, lines: new LineCoverage() }, (f) => f),
    /hook {2,}point/,
  );
});
