// `hooksmith scenario from-messages` over the built CLI with a real python3: an OpenAI message
// list and Hooksmith's own simulate JSON become multi-turn scenarios whose replay reproduces the
// recorded bot texts; --expect snapshot records them so `hooksmith test` passes; bad input exits 2.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, before, test } from 'node:test';
import { parse } from 'yaml';
import type { SimulationResult } from '../../runtime/engine/api';

const root = join(__dirname, '..', '..');
const cli = join(root, 'dist', 'cli.js');
let dir: string;

const HOOKS = `from rasa.mantle.hooks import ModelResponsePayload, ToolResultPayload, modify_model_response, modify_tool_result

ANSWERS = 0


@modify_model_response()
async def number(payload: ModelResponsePayload) -> ModelResponsePayload:
    global ANSWERS
    if not payload.text:
        return payload
    ANSWERS += 1
    return payload.model_copy(update={"text": f"{payload.text} (#{ANSWERS})"})


@modify_tool_result()
async def redact(result: ToolResultPayload) -> ToolResultPayload:
    return result.model_copy(update={"value": result.value.replace("ada@example.com", "[email]")})
`;

const SCENARIO = `tools:
  lookup: { value: { email: ada@example.com } }
turns:
  - user: look me up
    completions:
      - tool_calls: [{ tool_name: lookup, tool_args: { id: c-1 } }]
      - text: Found you
  - user: thanks
    completions: [{ text: Welcome }]
`;

const MESSAGES = [
  { role: 'system', content: 'You are terse.' },
  { role: 'user', content: 'where is my order?' },
  {
    role: 'assistant',
    content: null,
    tool_calls: [{ id: 'c1', type: 'function', function: { name: 'track', arguments: '{"order":"A-1"}' } }],
  },
  { role: 'tool', tool_call_id: 'c1', content: '{"status":"shipped"}' },
  { role: 'assistant', content: 'It has shipped.' },
  { role: 'user', content: 'thanks' },
  { role: 'assistant', content: 'Any time.' },
];

function write(rel: string, text: string): string {
  const file = join(dir, rel);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, text);
  return file;
}
const hooksmith = (...args: string[]) =>
  spawnSync(process.execPath, [cli, ...args], { cwd: dir, encoding: 'utf8' });
const bot = (sim: SimulationResult) => sim.transcript.filter((t) => t.role === 'bot').map((t) => t.text);

before(() => {
  dir = mkdtempSync(join(tmpdir(), 'hooksmith-replay-'));
  write('agent/hooks.py', HOOKS);
  write('plain/README', 'an agent without hooks\n');
});
after(() => rmSync(dir, { recursive: true, force: true }));

test('an OpenAI message list: user messages become turns, assistant messages completions, tool messages results', () => {
  const input = write('chat.json', JSON.stringify(MESSAGES));
  const r = hooksmith('scenario', 'from-messages', input, '-o', 'plain/chat.scenario.yaml');
  assert.equal(r.status, 0, r.stderr);
  const sc = parse(readFileSync(join(dir, 'plain/chat.scenario.yaml'), 'utf8')) as Record<string, unknown>;
  assert.equal(sc.system_prompt, 'You are terse.');
  assert.deepEqual(sc.turns, [
    {
      user: 'where is my order?',
      completions: [
        { tool_calls: [{ id: 'c1', tool_name: 'track', tool_args: { order: 'A-1' } }] },
        { text: 'It has shipped.' },
      ],
      tools: { track: { value: { status: 'shipped' } } },
      expect: { transcript: { snapshot: 'It has shipped.' } },
    },
    {
      user: 'thanks',
      completions: [{ text: 'Any time.' }],
      expect: { transcript: { snapshot: 'Any time.' } },
    },
  ]);
  const played = hooksmith('simulate', 'plain/chat.scenario.yaml', '--format', 'json');
  assert.equal(played.status, 0, played.stderr);
  const sim = JSON.parse(played.stdout) as SimulationResult;
  assert.deepEqual(bot(sim), ['It has shipped.', 'Any time.']);
  assert.deepEqual(
    sim.tools?.map((t) => [t.tool_name, t.arguments, t.turn]),
    [['track', { order: 'A-1' }, 1]],
  );
});

test("simulate's JSON round-trips: the replay through the same hooks gives the recorded bot texts; --expect snapshot makes a passing test", () => {
  write('agent/original.scenario.yaml', SCENARIO);
  const original = hooksmith('simulate', 'agent/original.scenario.yaml', '--format', 'json');
  assert.equal(original.status, 0, original.stderr);
  const recorded = JSON.parse(original.stdout) as SimulationResult;
  assert.deepEqual(bot(recorded), ['Found you (#1)', 'Welcome (#2)']);
  write('recorded.json', original.stdout);
  const r = hooksmith(
    'scenario',
    'from-messages',
    'recorded.json',
    '--expect',
    'snapshot',
    '-o',
    'agent/replay.scenario.yaml',
  );
  assert.equal(r.status, 0, r.stderr);
  const text = readFileSync(join(dir, 'agent/replay.scenario.yaml'), 'utf8');
  // The LLM's completions as it gave them (before the hook numbered them), the tool's raw result.
  assert.match(text, /text: Found you\n/);
  assert.match(text, /email: ada@example.com/);
  assert.match(text, /snapshot: "?Found you \(#1\)"?\n/);
  const replay = JSON.parse(hooksmith('simulate', 'agent/replay.scenario.yaml', '--format', 'json').stdout);
  assert.deepEqual(bot(replay as SimulationResult), bot(recorded));
  const t = hooksmith('test', 'agent/replay.scenario.yaml');
  assert.equal(t.status, 0, t.stdout + t.stderr);
  assert.match(t.stdout, /1 passed, 0 failed/);
});

test('bad input is a clear error, exit 2: not a message list, a tool message with no call, not JSON', () => {
  const cases: [string, RegExp][] = [
    ['{"foo": 1}', /not a recorded conversation/],
    [
      JSON.stringify([
        { role: 'user', content: 'hi' },
        { role: 'tool', tool_call_id: 'x', content: '1' },
      ]),
      /message 2: a tool message whose tool_call_id \("x"\) names no earlier assistant tool call/,
    ],
    ['[{"role": "user", "content": "hi"}', /not valid JSON/],
    [JSON.stringify([{ role: 'wizard', content: 'hi' }]), /message 1: unknown role 'wizard'/],
  ];
  for (const [input, message] of cases) {
    const r = hooksmith('scenario', 'from-messages', write('bad.json', input));
    assert.equal(r.status, 2, input);
    assert.match(r.stderr, message);
    assert.equal(r.stdout, '');
  }
  assert.equal(hooksmith('scenario', 'from-messages', 'missing.json').status, 2);
  assert.equal(hooksmith('scenario', 'into-messages', 'x').status, 2);
});
