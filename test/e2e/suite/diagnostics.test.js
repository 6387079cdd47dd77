// Diagnostics as a person sees them: the faulty example agent copied beside the workspace
// (its own agent, outside the clean one), its modules opened in editors, and exactly the
// codes of examples/faulty-agent/expected.json at exactly those lines, with the rule's
// documentation link (the shipped rule reference) and `hooksmith` as the source.
'use strict';
const assert = require('assert');
const fs = require('fs');
const path = require('path');
const vscode = require('vscode');
const e2e = require('./harness');
const h = require('./helpers');

describe('diagnostics (faulty example agent)', function () {
  this.timeout(180000);
  const expected = JSON.parse(
    fs.readFileSync(path.join(e2e.config.repoRoot, 'examples/faulty-agent/expected.json'), 'utf8'),
  );
  const byFile = new Map();
  for (const e of expected) byFile.set(e.file, [...(byFile.get(e.file) || []), `${e.code}@${e.line}`].sort());
  let root;

  before(async () => {
    await h.activate();
    // expected.json lists not-wired, as `check --wired-points` without the text points reports it.
    await h.wireWithoutTextPoints();
    root = h.copyExampleOutside('faulty-agent', 'faulty-diagnostics');
    // The agent is outside the workspace folder, so the server knows its modules from the
    // editors: open them all first (cross-file rules such as duplicate-modify-hook need both).
    for (const file of byFile.keys()) await h.open(path.join(root, file));
  });
  after(async () => {
    await h.wireAsInstalled();
    await h.closeAll();
  });

  // Without rasa-pro / cayu in the test interpreter, their imports get import-error's information
  // (the shim stands in): machine-dependent, so not part of the expected set.
  const shimInfo = (d) =>
    h.codeOf(d) === 'import-error' && d.severity === vscode.DiagnosticSeverity.Information;
  const codes = (ds) => h.codeLines(ds.filter((d) => !shimInfo(d)));

  for (const [file, want] of byFile) {
    it(`${file}: ${want.join(', ')}`, async () => {
      const doc = await h.open(path.join(root, file));
      const want_ = want.join(' ');
      let got;
      try {
        got = await h.waitForOurs(doc.uri, (d) => codes(d).join(' ') === want_);
      } catch (err) {
        assert.deepStrictEqual(codes(h.ours(doc.uri)), want, `diagnostics of ${file}`);
        throw err;
      }
      for (const d of got) {
        assert.strictEqual(d.source, 'hooksmith');
        assert.ok(d.code && typeof d.code === 'object', `code of ${h.codeOf(d)} carries a codeDescription`);
        assert.strictEqual(d.code.value, h.codeOf(d));
        assert.ok(d.code.target instanceof vscode.Uri, 'code.target is a Uri');
        // The shipped rule page, opened inside VS Code through the extension's URI handler (no
        // external-site dialog, and no raw command: URI in the Problems tooltip).
        assert.strictEqual(d.code.target.scheme, vscode.env.uriScheme, d.code.target.toString());
        assert.strictEqual(d.code.target.authority, e2e.config.extensionId, d.code.target.toString());
        assert.strictEqual(d.code.target.path, `/rule/${h.codeOf(d)}`, 'the link names its rule');
        assert.ok(d.message.length > 10, `a real message for ${h.codeOf(d)}`);
      }
    });
  }

  it('leaves the clean agent of the workspace without diagnostics', async () => {
    const doc = await h.open(h.ws('hooks/tool_hooks.py'));
    // Its hooks are in the server's list (so it was analysed) and it has no problem.
    const api = await h.activate();
    await h.waitForHooks(api, (r) => r.agents.some((a) => a.hooks.some((x) => x.handler === 'guard_orders')));
    assert.deepStrictEqual(h.codeLines(h.ours(doc.uri)), []);
  });
});
