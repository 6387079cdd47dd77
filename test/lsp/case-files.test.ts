// Scenario and payload-case files get diagnostics from Hooksmith's own server as they are typed:
// unknown keys with did-you-mean (and its quick fix), wrong values, an invalid `matches:` regex,
// hook / point / tool names the agent or the scenario does not have, malformed YAML and JSON at
// their position — each at its key or value, with source and code — and the words are the ones
// `hooksmith test` prints for the same file.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { CodeActionRequest, type CodeAction, type Diagnostic } from 'vscode-languageserver-protocol';
import { LspClient, ROOT, workspace } from './lsp-client';

const HOOKS = `from rasa.mantle.hooks import ToolCallPayload, modify_tool_call


@modify_tool_call()
async def guard_orders(call: ToolCallPayload) -> ToolCallPayload:
    return call
`;

const GOOD = `user: show my orders
completions:
  - tool_calls: [{ tool_name: list_orders }]
  - text: Here they are.
tools:
  list_orders: { value: [] }
expect:
  hook_outcome: { point: tool_call, hook: guard_orders, outcome: returned }
`;

const at = (text: string, needle: string) => {
  const i = text.indexOf(needle);
  assert.ok(i >= 0, needle);
  const before = text.slice(0, i).split('\n');
  return { line: before.length - 1, character: before[before.length - 1]!.length };
};

function only(c: LspClient, uri: string, code: string): Diagnostic {
  const found = c.last(uri)!.diagnostics.filter((d) => d.code === code);
  assert.equal(found.length, 1, JSON.stringify(c.last(uri)!.diagnostics));
  return found[0]!;
}

describe('scenario and payload-case files', () => {
  const ws = workspace({
    'agent/hooks.py': HOOKS,
    'agent/orders.scenario.yaml': GOOD,
    'agent/.hooksmith/payloads/call.json': '{}',
  });
  let c: LspClient;
  before(async () => {
    c = await LspClient.start({ folders: [ws.dir] });
  });
  after(async () => {
    await c.stop();
    ws.cleanup();
  });

  it('a valid scenario has no diagnostics', async () => {
    const uri = await c.open(ws.path('agent/orders.scenario.yaml'), GOOD, 'yaml');
    const p = await c.waitFor(uri, (x) => x.version === 1);
    assert.deepEqual(p.diagnostics, []);
  });

  it('an unknown key is an error on the key, with did-you-mean and its quick fix', async () => {
    const text = GOOD.replace('  - text: Here', '  - txt: Here');
    const uri = await c.open(ws.path('agent/typo.scenario.yaml'), text, 'yaml');
    await c.waitFor(uri, (x) => x.diagnostics.length > 0);
    const d = only(c, uri, 'case-unknown-key');
    assert.equal(d.source, 'hooksmith');
    assert.equal(d.severity, 1);
    assert.equal(d.message, "unknown key 'txt' (did you mean 'text'?)");
    const start = at(text, 'txt:');
    assert.deepEqual(d.range, { start, end: { line: start.line, character: start.character + 3 } });
    assert.match(String(d.codeDescription?.href), /docs\/files\.md#checks-in-the-editor$/);
    const actions = (await c.conn.sendRequest(CodeActionRequest.type, {
      textDocument: { uri },
      range: d.range,
      context: { diagnostics: [d], only: ['quickfix'] },
    })) as CodeAction[];
    assert.equal(actions[0]?.title, "Change to 'text'");
    assert.equal(actions[0]?.isPreferred, true);
    const edits = actions[0]!.edit!.changes![uri]!;
    const fixed = TextDocument.applyEdits(TextDocument.create(uri, 'yaml', 1, text), edits);
    assert.equal(fixed, GOOD);
  });

  it('follows edits: a wrong type and an invalid regex appear at their values, and go', async () => {
    const uri = await c.open(ws.path('agent/edit.scenario.yaml'), GOOD, 'yaml');
    await c.waitFor(uri, (x) => x.version === 1);
    const bad = `${GOOD}  status: done\n  transcript: { matches: "total (" }\n`;
    await c.change(uri, [{ text: bad }]);
    const p = await c.waitFor(uri, (x) => x.version === 2);
    const codes = p.diagnostics.map((d) => d.code).sort();
    assert.deepEqual(codes, ['case-invalid-regex', 'case-invalid-value'], JSON.stringify(p.diagnostics));
    const status = only(c, uri, 'case-invalid-value');
    assert.deepEqual(status.range.start, at(bad, 'done'));
    assert.match(status.message, /expected one of "completed"\|"cancelled"\|"error"/);
    const regex = only(c, uri, 'case-invalid-regex');
    assert.deepEqual(regex.range.start, at(bad, '"total ('));
    assert.match(regex.message, /^invalid regular expression: .*missing closing \)/);
    await c.change(uri, [{ text: GOOD }]);
    const clean = await c.waitFor(uri, (x) => x.version === 3);
    assert.deepEqual(clean.diagnostics, []);
  });

  it('names the agent or the scenario does not have are warnings at the name, with the name meant', async () => {
    const text = GOOD.replace('hook: guard_orders', 'hook: guard_ordrs')
      .replace('point: tool_call', 'point: tool_cal')
      .replace('tool_calls: [{ tool_name: list_orders }]', 'tool_calls: [{ tool_name: list_order }]');
    const uri = await c.open(ws.path('agent/names.scenario.yaml'), text, 'yaml');
    await c.waitFor(uri, (x) => x.diagnostics.length === 3);
    const hook = only(c, uri, 'case-unknown-hook');
    assert.equal(hook.severity, 2);
    assert.equal(hook.message, "no hook 'guard_ordrs' in the agent (did you mean 'guard_orders'?)");
    assert.deepEqual(hook.range.start, at(text, 'guard_ordrs'));
    assert.equal(hook.range.end.character - hook.range.start.character, 'guard_ordrs'.length);
    const point = only(c, uri, 'case-unknown-point');
    assert.equal(point.message, "no point or phase 'tool_cal' (did you mean 'tool_call'?)");
    assert.deepEqual(point.range.start, at(text, 'tool_cal,'));
    const tool = only(c, uri, 'case-unknown-tool');
    assert.equal(tool.message, "no tool 'list_order' in this scenario's tools (did you mean 'list_orders'?)");
    assert.deepEqual(tool.range.start, at(text, 'list_order }'));
  });

  it('malformed YAML is reported at its position and the server goes on', async () => {
    const text = 'user: hi\ncompletions:\n  - text: [unclosed\ntools: {}\n';
    const uri = await c.open(ws.path('agent/broken.scenario.yaml'), text, 'yaml');
    const p = await c.waitFor(uri, (x) => x.diagnostics.length > 0);
    assert.ok(
      p.diagnostics.every((d) => d.code === 'case-syntax' && d.severity === 1),
      JSON.stringify(p),
    );
    assert.match(p.diagnostics[0]!.message, /^not valid YAML: /);
    assert.ok(p.diagnostics[0]!.range.start.line >= 2, JSON.stringify(p.diagnostics[0]!.range));
    assert.ok(c.alive);
  });

  it('a payload case: malformed JSON at its position, an unknown expect key, a hook the agent lacks', async () => {
    const file = ws.path('agent/.hooksmith/payloads/call.json');
    const uri = await c.open(
      file,
      '{\n  "hook": "hooks.py::guard_orders",\n  "expect": { "outcome": }\n}\n',
      'json',
    );
    const broken = await c.waitFor(uri, (x) => x.diagnostics.length > 0);
    assert.equal(broken.diagnostics[0]!.code, 'case-syntax');
    assert.match(broken.diagnostics[0]!.message, /^not valid JSON: /);
    assert.deepEqual(broken.diagnostics[0]!.range.start, { line: 2, character: 25 });

    const typo = '{\n  "hook": "hooks.py::guard_orders",\n  "expect": { "outcom": "returned" }\n}\n';
    await c.change(uri, [{ text: typo }]);
    await c.waitFor(uri, (x) => x.version === 2);
    const key = only(c, uri, 'case-unknown-key');
    assert.equal(key.message, "unknown key 'outcom' (did you mean 'outcome'?)");
    const quoted = at(typo, '"outcom"');
    assert.deepEqual(key.range, { start: quoted, end: { line: 2, character: quoted.character + 8 } });

    const missing = '{\n  "hook": "hooks.py::guard_order",\n  "expect": { "outcome": "returned" }\n}\n';
    await c.change(uri, [{ text: missing }]);
    await c.waitFor(uri, (x) => x.version === 3);
    const hook = only(c, uri, 'case-unknown-hook');
    assert.equal(
      hook.message,
      "no hook 'hooks.py::guard_order' in the agent (did you mean 'hooks.py::guard_orders'?)",
    );
    assert.deepEqual(hook.range.start, at(missing, 'hooks.py::guard_order"'));
  });

  it("the editor's words are the CLI's: hooksmith test prints the same message for the same file", async () => {
    const text = GOOD.replace('  - text: Here', '  - txt: Here');
    const file = ws.path('agent/cli.scenario.yaml');
    writeFileSync(file, text);
    const uri = await c.open(file, text, 'yaml');
    await c.waitFor(uri, (x) => x.diagnostics.length > 0);
    const d = only(c, uri, 'case-unknown-key');
    const r = spawnSync(process.execPath, [join(ROOT, 'bin', 'hooksmith.js'), 'test', file], {
      encoding: 'utf8',
    });
    assert.equal(r.status, 2, r.stdout + r.stderr);
    assert.ok(r.stdout.includes(`completions[1]: ${d.message}`), r.stdout);
  });
});
