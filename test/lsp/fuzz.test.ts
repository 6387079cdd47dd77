// Random edits (fast-check) through the real server process: it stays alive, keeps
// answering every request kind, and ends with diagnostics for the final version.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { TextDocument } from 'vscode-languageserver-textdocument';
import {
  CodeActionRequest,
  CompletionRequest,
  DocumentSymbolRequest,
  HoverRequest,
  type TextDocumentContentChangeEvent,
} from 'vscode-languageserver-protocol';
import { HOOKS_REQUEST } from '../../runtime/lsp/shared';
import { LspClient, workspace } from './lsp-client';
import { CAYU_HOOK, GOOD_HOOKS } from './fixtures';

const FRAGMENTS = [
  '@',
  '@modify_tool_call(',
  ')',
  '(',
  '{',
  '}',
  '"',
  "'",
  '"""',
  ':',
  '\n',
  '\n    ',
  '    ',
  'async ',
  'def ',
  'class X(RuntimeHook):\n',
  'payload.',
  'model_copy(update={',
  '"model_settings": {',
  'raise RetryModel("x")',
  'BeforeToolCallDecision(action="',
  '\\',
  '\t',
  'é',
  '😀',
  '\u0000',
  '\r\n',
  'from rasa.mantle.hooks import (',
  'timeout_ms=-1',
  'lambda: ',
  '#',
  'yield',
  'await ',
  ',',
];

const edit = fc.record({
  at: fc.nat(),
  del: fc.nat({ max: 40 }),
  text: fc.oneof(fc.constantFrom(...FRAGMENTS), fc.string({ maxLength: 12 }), fc.constant('')),
  ask: fc.nat({ max: 9 }),
});

describe('fuzz: random edits through the server process', () => {
  const ws = workspace({ 'agent/hooks.py': GOOD_HOOKS, 'agent/guard.py': CAYU_HOOK });
  let c: LspClient;
  before(async () => {
    c = await LspClient.start({ folders: [ws.dir] });
  });
  after(async () => {
    await c.stop();
    ws.cleanup();
  });

  for (const [file, initial] of [
    ['agent/hooks.py', GOOD_HOOKS],
    ['agent/guard.py', CAYU_HOOK],
  ] as const) {
    it(`survives random edits of ${file} and still answers`, async () => {
      const uri = await c.open(ws.path(file), initial);
      let doc = TextDocument.create(uri, 'python', 1, initial);
      await fc.assert(
        fc.asyncProperty(fc.array(edit, { minLength: 1, maxLength: 25 }), async (edits) => {
          for (const e of edits) {
            const text = doc.getText();
            const start = e.at % (text.length + 1);
            const end = Math.min(text.length, start + e.del);
            const change: TextDocumentContentChangeEvent = {
              range: { start: doc.positionAt(start), end: doc.positionAt(end) },
              text: e.text,
            };
            doc = TextDocument.update(doc, [change], doc.version + 1);
            await c.change(uri, [change]);
            const position = doc.positionAt(e.at % (doc.getText().length + 1));
            const td = { textDocument: { uri } };
            if (e.ask === 0) await c.conn.sendRequest(HoverRequest.type, { ...td, position });
            if (e.ask === 1) await c.conn.sendRequest(CompletionRequest.type, { ...td, position });
            if (e.ask === 2) await c.conn.sendRequest(DocumentSymbolRequest.type, td);
            if (e.ask === 3) {
              const range = { start: position, end: position };
              await c.conn.sendRequest(CodeActionRequest.type, {
                ...td,
                range,
                context: { diagnostics: c.last(uri)?.diagnostics ?? [] },
              });
            }
          }
          assert.ok(c.alive, 'server alive');
        }),
        { numRuns: 15, seed: 42 },
      );
      // The last version gets its diagnostics; a full resync still works afterwards.
      await c.waitFor(uri, (p) => p.version === doc.version, 10000);
      const v = await c.change(uri, [{ text: initial }]);
      await c.waitFor(uri, (p) => p.version === v);
      const hooks = await c.conn.sendRequest(HOOKS_REQUEST, {});
      assert.ok(hooks);
      assert.ok(c.alive);
      // Handlers are wrapped, but a wrapped failure is still a bug worth seeing.
      const failures = c.logs.filter((l) => /failed|uncaught|unhandled/.test(l));
      assert.deepEqual(failures, []);
    });
  }
});
