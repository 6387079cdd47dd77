// Settings pulled per document: a rule turned off, a severity override, and bad config
// logged and ignored (the valid parts still apply).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { DiagnosticSeverity } from 'vscode-languageserver-protocol';
import { cleanSettings } from '../../server/settings';
import { LspClient, uriOf, workspace } from './lsp-client';

const MISSING_PARENS =
  'from rasa.mantle.hooks import TurnStartedPayload, on_turn_started\n\n@on_turn_started\nasync def x(p: TurnStartedPayload) -> None:\n    pass\n';

describe('settings', () => {
  const ws = workspace({ 'agent/hooks.py': MISSING_PARENS });
  let c: LspClient;
  before(async () => {
    c = await LspClient.start({ folders: [ws.dir], settings: { rules: { 'missing-parentheses': false } } });
  });
  after(async () => {
    await c.stop();
    ws.cleanup();
  });

  it('turns a rule off, and on again after didChangeConfiguration', async () => {
    const uri = await c.open(ws.path('agent/hooks.py'), MISSING_PARENS);
    const off = await c.waitFor(uri, (p) => p.version === 1);
    assert.ok(
      !off.diagnostics.some((d) => d.code === 'missing-parentheses'),
      JSON.stringify(off.diagnostics),
    );
    await c.configure({ severity: { 'missing-parentheses': 'hint' } });
    const on = await c.waitFor(uri, (p) => p.diagnostics.some((d) => d.code === 'missing-parentheses'));
    assert.equal(
      on.diagnostics.find((d) => d.code === 'missing-parentheses')!.severity,
      DiagnosticSeverity.Hint,
    );
  });

  it('logs bad config and ignores it, keeping the valid fields', async () => {
    const uri = (await c.open(ws.path('agent/hooks.py'), MISSING_PARENS)) as string;
    const before = c.logs.length;
    await c.configure({
      rules: 'all-off',
      severity: { 'missing-parentheses': 'warning' },
      extraAgentRoots: 42,
    });
    const p = await c.waitFor(uri, (p) =>
      p.diagnostics.some(
        (d) => d.code === 'missing-parentheses' && d.severity === DiagnosticSeverity.Warning,
      ),
    );
    assert.ok(p);
    const logged = c.logs.slice(before).join('\n');
    assert.match(logged, /ignoring setting hooksmith\.rules/);
    assert.match(logged, /ignoring setting hooksmith\.extraAgentRoots/);
    assert.ok(c.alive);
  });

  it('cleanSettings defaults everything on garbage', () => {
    const logs: string[] = [];
    assert.deepEqual(cleanSettings('nope', (m) => logs.push(m)).rules, {});
    assert.equal(logs.length, 1);
    assert.deepEqual(
      cleanSettings({ severity: { a: 'fatal' }, rules: { b: false } }, (m) => logs.push(m)),
      {
        rules: { b: false },
        severity: {},
        extraAgentRoots: [],
        pythonPath: '',
        maxDiagnosticsPerCode: 100,
        hostMemoryLimitMb: 4096,
        mantle: { engine: 'auto' },
        cayu: { safetyStopSeconds: 120, engine: 'auto' },
        model: null,
        modelRecord: null,
        testing: { repeat: null },
      },
    );
  });
});

describe('extraAgentRoots', () => {
  // Dot-folders are never searched; an extra root makes this one an agent.
  const ws = workspace({ '.agents/bot/hooks.py': MISSING_PARENS });
  let c: LspClient;
  after(async () => {
    await c.stop();
    ws.cleanup();
  });

  it('reads hook modules of extra roots (relative to the first folder)', async () => {
    c = await LspClient.start({ folders: [ws.dir], settings: { extraAgentRoots: ['.agents/bot'] } });
    const p = await c.waitFor(uriOf(ws.path('.agents/bot/hooks.py')), (p) => p.diagnostics.length > 0);
    assert.ok(p.diagnostics.some((d) => d.code === 'missing-parentheses'));
  });
});
