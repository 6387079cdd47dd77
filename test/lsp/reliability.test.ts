// Issue #24 items 9 and 10 over stdio with the real server: an interpreter that never answers
// costs one probe at a time however many documents are open, and none survives shutdown/exit;
// hooksmith.extraAgentRoots repeated 1,000 times is read once.
import assert from 'node:assert/strict';
import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { HoverRequest } from 'vscode-languageserver-protocol';
import { LspClient, uriOf, workspace } from './lsp-client';
import { running } from '../runtime/fixtures/processes';

const MISSING_PARENS =
  'from rasa.mantle.hooks import TurnStartedPayload, on_turn_started\n\n@on_turn_started\nasync def x(p: TurnStartedPayload) -> None:\n    pass\n';

describe('an interpreter that never answers', { skip: process.platform !== 'linux' }, () => {
  it('many documents: at most one probe and one syntax checker run, none after shutdown/exit, the server exits', async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 40; i++) files[`agent/hooks/h${i}.py`] = `import pkg_${i}\n${MISSING_PARENS}`;
    const ws = workspace(files);
    const sleepy = join(ws.dir, 'sleepy-python');
    writeFileSync(sleepy, '#!/bin/sh\nsleep 1000\n');
    chmodSync(sleepy, 0o755);
    const c = await LspClient.start({ folders: [ws.dir], settings: { pythonPath: sleepy } });
    try {
      for (let i = 0; i < 40; i++)
        await c.open(ws.path(`agent/hooks/h${i}.py`), files[`agent/hooks/h${i}.py`]!);
      await c.waitFor(uriOf(ws.path('agent/hooks/h39.py')), (p) => p.diagnostics.length > 0);
      await new Promise((r) => setTimeout(r, 1500)); // the debounced import questions are asked by now
      const n = running(sleepy);
      assert.ok(n >= 1 && n <= 2, `${n} interpreter processes for 40 documents`);
    } finally {
      await c.stop();
    }
    assert.equal(c.proc.exitCode, 0, `the server exited by itself (signal ${c.proc.signalCode})`);
    await new Promise((r) => setTimeout(r, 200));
    assert.equal(running(sleepy), 0, 'a probe outlived the server');
    ws.cleanup();
  });
});

describe('hooksmith.extraAgentRoots', () => {
  it('the same root 1,000 times is read once (said in the log), and its module is diagnosed', async () => {
    const ws = workspace({ '.agents/bot/hooks.py': MISSING_PARENS });
    const c = await LspClient.start({
      folders: [ws.dir],
      settings: {
        extraAgentRoots: Array.from({ length: 1000 }, (_, i) => (i % 2 ? '.agents/bot' : './.agents/bot/')),
      },
    });
    try {
      const p = await c.waitFor(
        uriOf(ws.path('.agents/bot/hooks.py')),
        (p) => p.diagnostics.length > 0,
        10_000,
      );
      assert.ok(p.diagnostics.some((d) => d.code === 'missing-parentheses'));
      assert.ok(
        c.logs.some((l) => /999 repeated entr\(ies\) ignored/.test(l)),
        c.logs.join('\n').slice(0, 2000),
      );
    } finally {
      await c.stop();
      ws.cleanup();
    }
  });
});

describe('hooksmith.extraAgentRoots off the request path', () => {
  const AGENTS = 1500;
  const bigRoot = (): Record<string, string> => {
    const files: Record<string, string> = { 'agent/hooks.py': MISSING_PARENS };
    for (let i = 0; i < AGENTS; i++) files[`.big/a${i}/hooks.py`] = MISSING_PARENS;
    return files;
  };
  const readLog = /extra agent roots: 1 root\(s\), (\d+) hook module\(s\) read/;

  it('a hover on an open document is answered while a large extra root is still being read; its modules are diagnosed after', async () => {
    const ws = workspace(bigRoot());
    const c = await LspClient.start({ folders: [ws.dir], settings: { extraAgentRoots: ['.big'] } });
    try {
      const uri = await c.open(ws.path('agent/hooks.py'), MISSING_PARENS);
      await c.waitFor(uri, (p) => p.diagnostics.length > 0);
      await until(() =>
        c.logs.some((l) => /extra agent roots: scanning 1 root\(s\) in the background/.test(l)),
      );
      const hover = await c.conn.sendRequest(HoverRequest.type, {
        textDocument: { uri },
        position: { line: 2, character: 3 },
      });
      const logsAtHover = [...c.logs];
      assert.ok(hover, 'the hover has an answer');
      assert.ok(
        !logsAtHover.some((l) => readLog.test(l)),
        'the hover waited for the extra root to be read:\n' + logsAtHover.join('\n').slice(-1500),
      );
      const last = await c.waitFor(
        uriOf(ws.path(`.big/a${AGENTS - 1}/hooks.py`)),
        (p) => p.diagnostics.length > 0,
        60_000,
      );
      assert.ok(last.diagnostics.some((d) => d.code === 'missing-parentheses'));
      const read = c.logs.map((l) => readLog.exec(l)).find(Boolean);
      assert.equal(read?.[1], String(AGENTS));
    } finally {
      await c.stop();
      ws.cleanup();
    }
  });

  it('a settings change rescans in the background: the new root is diagnosed, the old one cleared', async () => {
    // Dot folders: the workspace folder's own scan skips them, so only the setting brings them in.
    const ws = workspace({ '.one/bot/hooks.py': MISSING_PARENS, '.two/bot/hooks.py': MISSING_PARENS });
    const c = await LspClient.start({ folders: [ws.dir], settings: { extraAgentRoots: ['.one'] } });
    try {
      const one = uriOf(ws.path('.one/bot/hooks.py'));
      const two = uriOf(ws.path('.two/bot/hooks.py'));
      await c.waitFor(one, (p) => p.diagnostics.length > 0, 10_000);
      await c.configure({ extraAgentRoots: ['.two'] });
      await c.waitFor(two, (p) => p.diagnostics.some((d) => d.code === 'missing-parentheses'), 10_000);
      await c.waitFor(one, (p) => p.diagnostics.length === 0, 10_000);
    } finally {
      await c.stop();
      ws.cleanup();
    }
  });
});

async function until(ok: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!ok()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 5));
  }
}
