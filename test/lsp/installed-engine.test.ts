// The language server and the installed engine, over stdio with a real python3: imports the
// interpreter cannot resolve get import-error once it has answered (off the keystroke path);
// a fake rasa-pro 3.22 on PYTHONPATH invokes incoming_message (no not-wired) and exports
// on_session_closed (no unknown-import, offered as a completion), and its difference from the
// catalogue is logged; hooksmith.mantle.wiredPoints overrides the version.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { CompletionRequest, HoverRequest, type CompletionItem } from 'vscode-languageserver-protocol';
import { makeFakeRasaPro } from '../runtime/fixtures/fake-rasa-pro';
import { HOOKS_REQUEST, type HooksResult } from '../../runtime/lsp/shared';
import { LspClient, workspace } from './lsp-client';

const HOOKS = `import not_installed_anywhere
from rasa.mantle.hooks import IncomingMessagePayload, on_incoming_message, on_session_closed


@on_incoming_message()
async def log_incoming(message: IncomingMessagePayload) -> None:
    return None
`;

describe('installed engine in the language server', () => {
  const ws = workspace({ 'agent/hooks.py': HOOKS });
  const site = mkdtempSync(join(tmpdir(), 'hooksmith-site-'));
  let c: LspClient;
  before(async () => {
    makeFakeRasaPro(site, '3.22.0');
    c = await LspClient.start({
      folders: [ws.dir],
      env: { PYTHONPATH: site, HOOKSMITH_NO_CACHE: '1' },
    });
  });
  after(async () => {
    await c.stop();
    ws.cleanup();
    rmSync(site, { recursive: true, force: true });
  });

  it('import-error arrives after the interpreter answers; the installed 3.22 rules the rest', async () => {
    const uri = await c.open(ws.path('agent/hooks.py'), HOOKS);
    const p = await c.waitFor(
      uri,
      (x) => x.diagnostics.length === 1 && x.diagnostics[0]!.code === 'import-error',
      20_000,
    );
    const got = p.diagnostics.map((d) => `${d.range.start.line}:${d.code}`).sort();
    assert.deepEqual(got, ['0:import-error']);
    assert.ok(
      c.logs.some((l) => /installed engine .*rasa-pro 3\.22\.0 exports names .* on_session_closed/.test(l)),
    );
  });

  it('completions offer the installed decorators', async () => {
    const text = HOOKS + '\n@on_se';
    const uri = await c.open(ws.path('agent/hooks.py'), text);
    await c.waitFor(uri, () => true);
    const r = await c.conn.sendRequest(CompletionRequest.type, {
      textDocument: { uri },
      position: { line: 8, character: 6 },
    });
    const items = (Array.isArray(r) ? r : (r?.items ?? [])) as CompletionItem[];
    assert.ok(
      items.some((i) => i.label === 'on_session_closed'),
      items.map((i) => i.label).join(','),
    ); // 3.22 invokes incoming_message: its decorators are not marked not wired.
    const incoming = items.find((i) => i.label === 'modify_incoming_message');
    assert.equal(incoming?.detail, 'incoming_message · modify');
  });

  /** The hooks list's word on log_incoming (the explorer shows it): as the rule's. */
  const listed = async () =>
    ((await c.conn.sendRequest(HOOKS_REQUEST, {})) as HooksResult).agents
      .flatMap((a) => a.hooks)
      .find((h) => h.handler === 'log_incoming');

  /** The decorator hover. */
  const decoratorHover = async (uri: string) => {
    const r = await c.conn.sendRequest(HoverRequest.type, {
      textDocument: { uri },
      position: { line: 4, character: 3 },
    });
    return r && typeof r.contents === 'object' && 'value' in r.contents ? r.contents.value : '';
  };
  /** The decorator hover's Wired row. */
  const wiredRow = async (uri: string) => /\| Wired \| (.*) \|/.exec(await decoratorHover(uri))?.[1];

  /** The points the hooks list calls unwired (the Scaffold Hook picker marks them). */
  const unwired = async () => ((await c.conn.sendRequest(HOOKS_REQUEST, {})) as HooksResult).unwiredPoints;

  it('the hooks list and the hover say incoming_message is wired by the installed 3.22', async () => {
    assert.deepEqual(await unwired(), { points: [], by: 'rasa-pro 3.22.0' });
    const h = await listed();
    assert.equal(h?.wired, true, JSON.stringify(h));
    assert.equal(h?.wiredBy, 'rasa-pro 3.22.0');
    const uri = await c.open(ws.path('agent/hooks.py'), HOOKS);
    assert.equal(await wiredRow(uri), 'yes: invoked by rasa-pro 3.22.0');
    // No sentence elsewhere in the hover contradicts the row (#34: it said "Not invoked by the engine today").
    assert.doesNotMatch(await decoratorHover(uri), /not invoked/i);
  });

  it('hooksmith.mantle.wiredPoints overrides the installed version', async () => {
    const uri = await c.open(ws.path('agent/hooks.py'), HOOKS);
    await c.configure({ mantle: { wiredPoints: ['tool_call'] } });
    const p = await c.waitFor(uri, (x) => x.diagnostics.some((d) => d.code === 'not-wired'), 10_000);
    const nw = p.diagnostics.find((d) => d.code === 'not-wired')!;
    assert.match(nw.message, /not invoked by the hooksmith\.mantle\.wiredPoints setting/);
    const h = await listed();
    assert.equal(h?.wired, false);
    assert.equal(h?.wiredBy, 'the hooksmith.mantle.wiredPoints setting');
    const u = await unwired();
    assert.equal(u?.by, 'the hooksmith.mantle.wiredPoints setting');
    assert.ok(!u?.points.includes('tool_call') && u?.points.includes('model_request'), JSON.stringify(u));
    assert.match(
      String(await wiredRow(uri)),
      /^\*\*no\*\*: not invoked by the hooksmith\.mantle\.wiredPoints setting \(\[not-wired\]/,
    );
    // Completion after `@mod` puts the one wired point first, as the setting says.
    const text = HOOKS + '\n@mod';
    await c.open(ws.path('agent/hooks.py'), text);
    const r = await c.conn.sendRequest(CompletionRequest.type, {
      textDocument: { uri },
      position: { line: 8, character: 4 },
    });
    const items = (Array.isArray(r) ? r : (r?.items ?? [])) as CompletionItem[];
    const mods = items
      .filter((i) => String(i.label).startsWith('modify_'))
      .sort((a, b) => String(a.sortText).localeCompare(String(b.sortText)));
    assert.equal(mods[0]?.label, 'modify_tool_call', mods.map((i) => `${i.label} ${i.detail}`).join('; '));
    assert.match(String(mods[1]?.detail), / · not wired$/);
  });
});
