// The language server remembers where an agent's own imports resolve (server/environment.ts) and
// looks again when a watched file says the agent's files changed: a module the user creates beside
// the hooks ends its import-error at the next edit, and deleting it brings the error back. Over
// stdio, with a real python3 answering for the imports the agent does not decide.
import assert from 'node:assert/strict';
import { unlinkSync, writeFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { FileChangeType } from 'vscode-languageserver-protocol';
import { LspClient, uriOf, workspace } from './lsp-client';

const HOOKS = `import hooksmith_local_helpers
from rasa.mantle.hooks import ToolCallPayload, on_tool_call


@on_tool_call()
async def audit(call: ToolCallPayload) -> None:
    hooksmith_local_helpers.note(call.tool_name)
`;

describe('agent-local imports in the language server', () => {
  const ws = workspace({ 'agent/hooks.py': HOOKS });
  const helper = ws.path('agent/hooksmith_local_helpers.py');
  let c: LspClient;
  before(async () => {
    c = await LspClient.start({ folders: [ws.dir], env: { HOOKSMITH_NO_CACHE: '1' } });
  });
  after(async () => {
    await c.stop();
    ws.cleanup();
  });

  const importErrorOnLine0 = (p: { diagnostics: { code?: unknown; range: { start: { line: number } } }[] }) =>
    p.diagnostics.some((d) => d.code === 'import-error' && d.range.start.line === 0);

  it('a module created beside the hooks resolves after the watched-file event; deleted, it does not', async () => {
    const uri = await c.open(ws.path('agent/hooks.py'), HOOKS);
    await c.waitFor(uri, importErrorOnLine0, 20_000);

    writeFileSync(helper, 'def note(name):\n    return name\n');
    await c.watched([{ uri: uriOf(helper), type: FileChangeType.Created }]);
    const end = { line: 6, character: HOOKS.split('\n')[6]!.length };
    let version = await c.change(uri, [{ range: { start: end, end }, text: '  # noted' }]);
    let p = await c.waitFor(uri, (x) => x.version === version, 10_000);
    assert.equal(importErrorOnLine0(p), false, JSON.stringify(p.diagnostics));

    unlinkSync(helper);
    await c.watched([{ uri: uriOf(helper), type: FileChangeType.Deleted }]);
    version = await c.change(uri, [
      { range: { start: end, end: { line: 6, character: end.character + '  # noted'.length } }, text: '' },
    ]);
    p = await c.waitFor(uri, (x) => x.version === version, 10_000);
    assert.equal(importErrorOnLine0(p), true, JSON.stringify(p.diagnostics));
  });
});
