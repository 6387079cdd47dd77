// Values JSON cannot carry unchanged through Node, the host's json.loads and back are refused,
// naming their JSON path (#16 items 3 and 17); scenario agents stay in their folder tree (item 15).
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { JSON_LIMITS, unfaithfulJson } from '../../runtime/json/json-faithful';
import { loadScenario, parseScenarioText, ScenarioError } from '../../runtime/engine/scenario-load';

const dir = mkdtempSync(join(tmpdir(), 'hooksmith-faithful-'));
after(() => rmSync(dir, { recursive: true, force: true }));

function nested(levels: number): unknown {
  let v: unknown = 'leaf';
  for (let i = 0; i < levels; i++) v = { a: v };
  return v;
}

test('1e400 (Infinity once parsed) and lone surrogates are named by path', () => {
  assert.equal(
    unfaithfulJson(JSON.parse('{"tool_args": {"n": [1, 1e400]}}')),
    "tool_args.n[1]: Infinity is out of JSON's number range (a literal such as 1e400 overflows)",
  );
  assert.match(unfaithfulJson(JSON.parse('{"text": "a\\ud800b"}'))!, /^text: a lone UTF-16 surrogate/);
  assert.match(unfaithfulJson(JSON.parse('{"\\udc00": 1}'))!, /^\["\\udc00"\]: a key with a lone/);
  assert.equal(unfaithfulJson({ text: 'emoji 😀 and ü', n: [1.5, -0, 1e308] }), undefined);
});

test('an integer beyond 2^53 (a bigint once parsed) is carried faithfully', () => {
  assert.equal(unfaithfulJson({ id: 12345678901234567890n, n: [-(2n ** 70n)] }), undefined);
});

test('nesting deeper than the limit is named at the level it crosses, without overflowing on 5,000 levels', () => {
  assert.equal(unfaithfulJson(nested(JSON_LIMITS.depth)), undefined);
  const deep = unfaithfulJson(nested(5000))!;
  assert.ok(deep.startsWith('a.a.a.'), deep);
  assert.match(deep, new RegExp(`nested deeper than ${JSON_LIMITS.depth} levels`));
  assert.equal(deep.split(':')[0]!.split('.').length, JSON_LIMITS.depth);
});

test('a scenario with a deep or infinite value is a ScenarioError naming the path', () => {
  assert.throws(
    () => loadScenario({ user: 'x', tools: { t: { value: nested(3000) } } }, dir),
    (e: unknown) => e instanceof ScenarioError && /^tools\.t\.value\.a\.a/.test(e.details[0]!),
  );
  const yaml = join(dir, 'inf.scenario.yaml');
  writeFileSync(
    yaml,
    'user: x\ncompletions:\n  - tool_calls:\n      - tool_name: t\n        tool_args: {n: .inf}\n',
  );
  assert.throws(
    () => loadScenario(yaml),
    (e: unknown) =>
      e instanceof ScenarioError &&
      e.details[0]!.startsWith('completions[0].tool_calls[0].tool_args.n: Infinity'),
  );
});

test('a YAML alias bomb gets a clear message, not an internal ReferenceError', () => {
  const lines = ['a: &a ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]'];
  for (let i = 1; i < 9; i++) {
    const prev = String.fromCharCode(96 + i);
    const name = String.fromCharCode(97 + i);
    lines.push(`${name}: &${name} [${Array(9).fill(`*${prev}`).join(', ')}]`);
  }
  lines.push('user: *i');
  assert.throws(
    () => parseScenarioText(lines.join('\n'), 'bomb.scenario.yaml'),
    (e: unknown) => e instanceof ScenarioError && /YAML aliases expand too far/.test(e.message),
  );
});

test("agent: must stay in the scenario's folder tree or a workspace root (symlinks resolved)", () => {
  const ws = join(dir, 'ws');
  const scenarios = join(ws, 'scenarios');
  const other = join(dir, 'other');
  mkdirSync(join(scenarios, 'agent'), { recursive: true });
  mkdirSync(other, { recursive: true });
  symlinkSync(other, join(scenarios, 'link'));
  const write = (agent: string) => {
    const f = join(scenarios, 's.scenario.yaml');
    writeFileSync(f, `agent: ${agent}\nuser: hi\n`);
    return f;
  };
  assert.equal(loadScenario(write('agent')).agentRoot, join(scenarios, 'agent'));
  for (const bad of ['../../other', '/', 'link', '..'])
    assert.throws(
      () => loadScenario(write(bad)),
      (e: unknown) =>
        e instanceof ScenarioError && /outside the scenario's folder and the workspace/.test(e.message),
      bad,
    );
  // Inside the workspace: allowed when the caller names it (the CLI's cwd, the editor's folders).
  assert.equal(loadScenario(write('..'), undefined, [ws]).agentRoot, ws);
  assert.throws(() => loadScenario({ user: 'x', agent: '../other' }, ws), ScenarioError);
});
