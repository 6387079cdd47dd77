// #42 item 4, no flood: over a real stdio connection, a file publishes at most
// hooksmith.maxDiagnosticsPerCode diagnostics of one code, plus one information diagnostic saying
// how many more there are and that `hooksmith check` lists them all; other codes are untouched;
// 0 turns the cap off; `hooksmith check` (the CLI) has no cap.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Diagnostic } from 'vscode-languageserver-protocol';
import { LspClient, ROOT, workspace } from './lsp-client';

/** `n` registrations of one modify point (each a duplicate-modify-hook), and one bare decorator. */
function duplicates(n: number): string {
  const body = Array.from(
    { length: n },
    (_, i) =>
      `@modify_model_request()\nasync def m${i}(p: ModelRequestPayload) -> ModelRequestPayload:\n    return p\n`,
  );
  const bare = '@on_turn_started\nasync def started(payload) -> None:\n    pass\n';
  return `from rasa.mantle.hooks import ModelRequestPayload, modify_model_request, on_turn_started\n\n${body.join('\n')}\n${bare}`;
}

const byCode = (ds: Diagnostic[], code: string) => ds.filter((d) => d.code === code);

describe('hooksmith.maxDiagnosticsPerCode over stdio', () => {
  const ws = workspace({ 'agent/hooks/many.py': duplicates(150) });
  const file = ws.path('agent/hooks/many.py');
  let c: LspClient;
  let uri: string;
  before(async () => {
    c = await LspClient.start({ folders: [ws.dir] });
    uri = await c.open(file, duplicates(150));
  });
  after(async () => {
    await c.stop();
    ws.cleanup();
  });

  it('100 of a code by default, then one information diagnostic counting the rest', async () => {
    const p = await c.waitFor(uri, (x) => byCode(x.diagnostics, 'duplicate-modify-hook').length > 0, 20_000);
    const dups = byCode(p.diagnostics, 'duplicate-modify-hook');
    assert.equal(dups.length, 101);
    const errors = dups.filter((d) => d.severity === 1);
    assert.equal(errors.length, 100);
    const summary = dups.at(-1)!;
    assert.equal(summary.severity, 3, 'information');
    assert.match(
      summary.message,
      /^50 more `duplicate-modify-hook` diagnostics in this file not shown \(hooksmith\.maxDiagnosticsPerCode is 100\): `hooksmith check` lists them all\.$/,
    );
    assert.deepEqual(summary.range, errors.at(-1)!.range, 'at the last one shown');
    // Another code of the same file is not capped away.
    assert.equal(byCode(p.diagnostics, 'missing-parentheses').length, 1);
  });

  it('a lower cap applies when the setting changes; 0 shows every one', async () => {
    await c.configure({ maxDiagnosticsPerCode: 10 });
    let p = await c.waitFor(uri, (x) => byCode(x.diagnostics, 'duplicate-modify-hook').length === 11, 20_000);
    assert.match(byCode(p.diagnostics, 'duplicate-modify-hook').at(-1)!.message, /^140 more /);
    await c.configure({ maxDiagnosticsPerCode: 0 });
    p = await c.waitFor(uri, (x) => byCode(x.diagnostics, 'duplicate-modify-hook').length === 150, 20_000);
    assert.ok(byCode(p.diagnostics, 'duplicate-modify-hook').every((d) => d.severity === 1));
  });

  it('hooksmith check lists them all (the CLI has no cap)', () => {
    const r = spawnSync(
      process.execPath,
      [join(ROOT, 'dist', 'cli.js'), 'check', file, '--format', 'json', '--no-cpython'],
      {
        encoding: 'utf8',
      },
    );
    assert.equal(r.status, 1, r.stderr);
    const found = JSON.parse(r.stdout) as { code: string }[];
    assert.equal(found.filter((f) => f.code === 'duplicate-modify-hook').length, 150);
  });
});
