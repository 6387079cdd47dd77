// #30 item 9: scenario and payload-case files get completion (keys, point, hook and tool names,
// the `scenario` / `turns` starters), hover and document symbols from the server itself, so every
// editor has them — here a generic client without snippet support, over stdio.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  CompletionRequest,
  DocumentSymbolRequest,
  HoverRequest,
  type CompletionItem,
  type CompletionList,
  type DocumentSymbol,
  type MarkupContent,
} from 'vscode-languageserver-protocol';
import { LspClient, workspace } from './lsp-client';

const HOOKS = `from rasa.mantle.hooks import ToolCallPayload, modify_tool_call


@modify_tool_call()
async def guard_orders(call: ToolCallPayload) -> ToolCallPayload:
    return call
`;

const SCENARIO = `name: orders
user: show my orders
completions:
  - tool_calls: [{ tool_name: list_orders }]
  - text: Here they are.
tools:
  list_orders: { value: [] }
expect:
  hook_outcome: { point: tool_call, hook: guard_orders, outcome: returned }
`;

/** The position after the first `needle` (or before it with `atStart`). */
const at = (text: string, needle: string, atStart = false) => {
  const i = text.indexOf(needle);
  assert.ok(i >= 0, needle);
  const before = text.slice(0, atStart ? i : i + needle.length).split('\n');
  return { line: before.length - 1, character: before[before.length - 1]!.length };
};

describe('scenario and payload-case files: completion, hover, symbols from the server', () => {
  const ws = workspace({ 'agent/hooks.py': HOOKS });
  let c: LspClient;
  before(async () => {
    c = await LspClient.start({
      folders: [ws.dir],
      vscode: false,
      capabilities: { textDocument: { completion: { completionItem: { snippetSupport: false } } } },
    });
  });
  after(async () => {
    await c.stop();
    ws.cleanup();
  });

  async function complete(uri: string, position: { line: number; character: number }) {
    const r = (await c.conn.sendRequest(CompletionRequest.type, { textDocument: { uri }, position })) as
      CompletionItem[] | CompletionList;
    const items = Array.isArray(r) ? r : r.items;
    return {
      items,
      labels: items.map((i) => i.label),
      texts: items.map((i) => i.textEdit?.newText ?? i.insertText),
    };
  }

  it('keys of the mapping under the cursor, by indentation, in YAML', async () => {
    const text = `${SCENARIO}turns:\n  - user: hi\n    completions:\n      - te\n`;
    const uri = await c.open(ws.path('agent/keys.scenario.yaml'), text, 'yaml');
    const top = await complete(uri, { line: 0, character: 0 });
    for (const k of ['user', 'completions', 'tools', 'expect', 'turns']) assert.ok(top.labels.includes(k), k);
    assert.ok(top.texts.includes('user: '));
    const inCompletion = await complete(uri, at(text, '      - te'));
    assert.ok(inCompletion.labels.includes('text'), inCompletion.labels.join());
    assert.ok(inCompletion.labels.includes('tool_calls'));
    assert.ok(!inCompletion.labels.includes('expect'), 'not the top-level keys');
    const text2 = text.replace('    completions:', '    exp');
    await c.change(uri, [{ text: text2 }]);
    const inTurn = await complete(uri, at(text2, '    exp'));
    assert.ok(
      inTurn.labels.includes('expect') && inTurn.labels.includes('completions'),
      inTurn.labels.join(),
    );
    assert.ok(!inTurn.labels.includes('turns'), 'a turn has no turns');
  });

  it('point, hook and tool names as values; plain text for a client without snippets', async () => {
    const text = `${SCENARIO}  payload_after:\n    point: tool_\n`.replace(
      'completions:\n  - tool_calls: [{ tool_name: list_orders }]',
      'completions:\n  - tool_calls:\n      - tool_name: li',
    );
    const uri = await c.open(ws.path('agent/values.scenario.yaml'), text, 'yaml');
    await c.waitFor(uri, (x) => x.version === 1);
    const tools = await complete(uri, at(text, 'tool_name: li'));
    assert.deepEqual(tools.labels, ['list_orders']);
    assert.deepEqual(tools.items[0]!.textEdit, {
      range: { start: at(text, 'tool_name: ', false), end: at(text, 'tool_name: li') },
      newText: 'list_orders',
    });
    const hookText = text.replace('hook: guard_orders', 'hook: gu');
    await c.change(uri, [{ text: hookText }]);
    const hooks = await complete(uri, at(hookText, 'hook: gu'));
    assert.deepEqual(hooks.labels, ['hooks.py::guard_orders']);
    const points = await complete(uri, at(hookText, 'point: tool_'));
    assert.ok(points.labels.includes('tool_call') && points.labels.includes('turn_started'));
    const status = `${SCENARIO}  status: \n`;
    await c.change(uri, [{ text: status }]);
    const statuses = await complete(uri, at(status, '  status: '));
    assert.deepEqual([...statuses.labels].sort(), ['cancelled', 'completed', 'error']);
    const empty = await c.open(ws.path('agent/new.scenario.yaml'), '', 'yaml');
    const starters = await complete(empty, { line: 0, character: 0 });
    const turns = starters.items.find((i) => i.label === 'turns');
    assert.ok(turns, starters.labels.join());
    assert.match(turns.textEdit!.newText, /^name: a conversation\nturns:\n {2}- user: hi/);
    assert.ok(!starters.texts.some((t) => /\$\d|\$\{/.test(t ?? '')), 'no snippet syntax');
    assert.ok(starters.items.every((i) => i.insertTextFormat !== 2));
  });

  it('a payload case in JSON: its keys, quoted, and the agent hooks for `hook`', async () => {
    const text = '{\n  "hook": "hooks.py::gu",\n  \n}\n';
    const uri = await c.open(ws.path('agent/.hooksmith/payloads/call.json'), text, 'json');
    const keys = await complete(uri, { line: 2, character: 2 });
    assert.ok(keys.labels.includes('expect'), keys.labels.join());
    assert.ok(keys.texts.includes('"expect": '));
    const hooks = await complete(uri, at(text, 'hooks.py::gu'));
    assert.deepEqual(hooks.labels, ['hooks.py::guard_orders']);
  });

  it('hover: a key says what it is, a point what and when', async () => {
    const uri = await c.open(ws.path('agent/hover.scenario.yaml'), SCENARIO, 'yaml');
    const key = await c.conn.sendRequest(HoverRequest.type, {
      textDocument: { uri },
      position: at(SCENARIO, 'complet', false),
    });
    assert.match((key!.contents as MarkupContent).value, /^\*\*completions\*\* — .*mock LLM/i);
    assert.deepEqual(key!.range!.start, at(SCENARIO, 'completions', true));
    const point = await c.conn.sendRequest(HoverRequest.type, {
      textDocument: { uri },
      position: at(SCENARIO, 'point: tool_c'),
    });
    assert.match((point!.contents as MarkupContent).value, /^\*\*tool_call\*\* — tool call/);
  });

  it('document symbols: the keys as an outline, list items by name', async () => {
    const text = `name: chat\nturns:\n  - name: greet\n    user: hi\n  - user: bye\n`;
    const uri = await c.open(ws.path('agent/outline.scenario.yaml'), text, 'yaml');
    const symbols = (await c.conn.sendRequest(DocumentSymbolRequest.type, {
      textDocument: { uri },
    })) as DocumentSymbol[];
    const outline = (list: DocumentSymbol[]): unknown =>
      list.map((s) => (s.children?.length ? { [s.name]: outline(s.children) } : s.name));
    assert.deepEqual(outline(symbols), ['name', { turns: [{ greet: ['name', 'user'] }, { bye: ['user'] }] }]);
    assert.deepEqual(symbols[1]!.selectionRange, {
      start: { line: 1, character: 0 },
      end: { line: 1, character: 5 },
    });
  });
});
