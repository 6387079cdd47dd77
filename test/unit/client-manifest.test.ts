// package.json (the extension manifest) against the code and the design: every contributed
// command has a handler registered in client/, the command ids and titles are DESIGN.md's,
// run/simulate need a trusted workspace, the settings match the server's schema, the rule
// codes match the registry, and the bundle needs nothing but `vscode` at run time.
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { builtinModules } from 'node:module';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { CONTEXT_VALUES } from '../../client/explorer/tree-model';
import { DEFAULT_SETTINGS } from '../../runtime/lsp/shared';
import { modelConfig } from '../../runtime/models/model-config';
import { MANIFEST, manifestWithRuleCodes } from '../../scripts/gen-rule-codes';
import { manifestWithPointEnum } from '../../scripts/gen-point-enum';
import { RULES } from '../../runtime/rules';

const root = join(__dirname, '..', '..');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const contributes = pkg.contributes;
const commands: { command: string; title: string; category?: string; enablement?: string }[] =
  contributes.commands;

function tsFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    return statSync(p).isDirectory() ? tsFiles(p) : p.endsWith('.ts') ? [p] : [];
  });
}

/** Command ids registered in client/: `registerCommand(X, …)` with X a literal or a constant holding one. */
function registeredCommands(): Set<string> {
  const sources = tsFiles(join(root, 'client')).map((f) =>
    readFileSync(f, 'utf8').replace(/^\s*\/\/.*$/gm, ''),
  );
  const all = sources.join('\n');
  const constants = new Map<string, string>();
  for (const m of all.matchAll(/(\w+)\s*[=:]\s*'((?:hooksmith\.)?[\w.]+)'/g)) constants.set(m[1]!, m[2]!);
  const ids = new Set<string>();
  for (const m of all.matchAll(/registerCommand\(\s*([^,)\s]+)/g)) {
    const arg = m[1]!;
    const literal = /^'([^']+)'$/.exec(arg)?.[1];
    const value = literal ?? constants.get(arg.split('.').pop()!);
    if (value) ids.add(value.startsWith('hooksmith.') ? value : `hooksmith.${value}`);
  }
  return ids;
}

/** The run / simulate UI lives in client/run and client/simulate (another engineer's feature). */
const PENDING_ELSEWHERE: Record<string, string> = {
  'hooksmith.runHook': 'client/run',
  'hooksmith.simulateTurn': 'client/simulate',
};

describe('package.json contributes', () => {
  const registered = registeredCommands();

  for (const c of commands) {
    it(`${c.command} has a handler registered in client/`, (t) => {
      const elsewhere = PENDING_ELSEWHERE[c.command];
      if (elsewhere && !existsSync(join(root, elsewhere))) return t.skip(`${elsewhere} does not exist yet`);
      assert.ok(registered.has(c.command), `registered: ${[...registered].join(', ')}`);
    });
  }

  it('contributes every command id of DESIGN.md with its title, in category Hooksmith', (t) => {
    const designPath = ['DESIGN.md', '../shared/DESIGN.md'].map((p) => join(root, p)).find(existsSync);
    if (!designPath) return t.skip('DESIGN.md not found');
    const design = readFileSync(designPath, 'utf8').replace(/\s+/g, ' ');
    const section = design.slice(design.indexOf('- Command ids:'), design.indexOf('### Files a user keeps'));
    const ids = [...section.matchAll(/`(hooksmith\.\w+)`(?: \(([^)]+)\))?/g)];
    assert.equal(ids.length, 4);
    for (const [, id, title] of ids) {
      const c = commands.find((x) => x.command === id);
      assert.ok(c, `${id} contributed`);
      if (title) assert.equal(c.title, title);
      assert.equal(c.category, 'Hooksmith');
    }
    assert.equal(
      commands.find((c) => c.command === 'hooksmith.restartServer')?.title,
      'Restart Language Server',
    );
  });

  it('every menu item names a contributed command', () => {
    const ids = new Set(commands.map((c) => c.command));
    for (const [menu, items] of Object.entries(contributes.menus as Record<string, { command: string }[]>)) {
      for (const item of items) assert.ok(ids.has(item.command), `${menu}: ${item.command}`);
    }
  });

  it('commands that run user code need a trusted workspace, everywhere they appear', () => {
    const runsCode = [
      'hooksmith.runHook',
      'hooksmith.simulateTurn',
      'hooksmith.explorer.runHook',
      'hooksmith.rerunLastHook',
      'hooksmith.debugHook',
      'hooksmith.debugTurn',
    ].filter((id) => commands.some((c) => c.command === id));
    assert.ok(runsCode.length >= 3);
    for (const id of runsCode) {
      assert.equal(commands.find((c) => c.command === id)?.enablement, 'isWorkspaceTrusted', id);
      for (const items of Object.values(
        contributes.menus as Record<string, { command: string; when?: string }[]>,
      )) {
        for (const item of items.filter((i) => i.command === id))
          assert.ok(
            item.when === 'false' || /isWorkspaceTrusted/.test(item.when ?? ''),
            `${id}: ${item.when}`,
          );
      }
    }
    const trust = pkg.capabilities.untrustedWorkspaces;
    assert.equal(trust.supported, 'limited');
    // hooksmith.model: a workspace must not send a key (api_key_env) to a base_url of its choosing.
    assert.deepEqual(trust.restrictedConfigurations, [
      'hooksmith.pythonPath',
      'hooksmith.extraAgentRoots',
      'hooksmith.model',
    ]);
  });

  it('the explorer context menu matches the tree items that are hooks', () => {
    const item = contributes.menus['view/item/context'].find(
      (i: { command: string }) => i.command === 'hooksmith.explorer.runHook',
    );
    const re = /viewItem =~ \/(.+?)\//.exec(item.when)![1]!;
    assert.ok(new RegExp(re).test(CONTEXT_VALUES.hook) && new RegExp(re).test(CONTEXT_VALUES.duplicateHook));
    assert.ok(!new RegExp(re).test(CONTEXT_VALUES.point) && !new RegExp(re).test(CONTEXT_VALUES.agent));
    assert.deepEqual(
      contributes.views.hooksmith.map((v: { id: string }) => v.id),
      ['hooksmith.hooks'],
    );
    assert.equal(contributes.viewsContainers.activitybar[0].id, 'hooksmith');
  });

  it('settings are the server schema (runtime/lsp/shared.ts) plus trace.server, with the same defaults', () => {
    const props = contributes.configuration.properties as Record<
      string,
      { default: unknown; propertyNames?: { enum: string[] } }
    >;
    // `mantle`, `cayu`, `testing` are sections: VS Code hands `hooksmith.cayu.engine` over as cayu.engine.
    const sections: Record<string, string> = {
      mantle: 'hooksmith.mantle.wiredPoints',
      cayu: 'hooksmith.cayu.safetyStopSeconds',
      testing: 'hooksmith.testing.repeat',
    };
    const expected = [
      ...Object.keys(DEFAULT_SETTINGS).map((k) => sections[k] ?? `hooksmith.${k}`),
      'hooksmith.mantle.apiLine',
      'hooksmith.mantle.engine',
      'hooksmith.cayu.apiLine',
      'hooksmith.cayu.engine',
      'hooksmith.trace.server',
    ].sort();
    assert.deepEqual(Object.keys(props).sort(), expected);
    for (const [k, v] of Object.entries(DEFAULT_SETTINGS))
      if (!(k in sections)) assert.deepEqual(props[`hooksmith.${k}`]!.default, v, k);
    assert.equal(props['hooksmith.mantle.wiredPoints']!.default, null);
    assert.equal(props['hooksmith.cayu.safetyStopSeconds']!.default, DEFAULT_SETTINGS.cayu.safetyStopSeconds);
    assert.equal(props['hooksmith.cayu.apiLine']!.default, null);
    assert.equal(props['hooksmith.cayu.engine']!.default, DEFAULT_SETTINGS.cayu.engine);
    assert.equal(props['hooksmith.mantle.engine']!.default, DEFAULT_SETTINGS.mantle.engine);
    assert.equal(props['hooksmith.testing.repeat']!.default, DEFAULT_SETTINGS.testing.repeat);
    // hooksmith.model is a scenario's `model:` (runtime/models/model-config.ts), field for field.
    const model = props['hooksmith.model'] as unknown as { properties: object; required: string[] };
    assert.deepEqual(Object.keys(model.properties).sort(), Object.keys(modelConfig.shape).sort());
    assert.deepEqual(model.required, ['model']);
    const codes = RULES.map((r) => r.code);
    assert.deepEqual(props['hooksmith.rules']!.propertyNames!.enum, codes);
    assert.deepEqual(props['hooksmith.severity']!.propertyNames!.enum, codes);
  });

  it('the rule-code lists are up to date with the registry (run: node --import tsx scripts/gen-rule-codes.ts)', () => {
    const committed = readFileSync(MANIFEST, 'utf8');
    assert.equal(committed, manifestWithRuleCodes(committed), 'package.json is stale');
  });

  it('the wiredPoints enum is up to date with the catalogue (run: node --import tsx scripts/gen-point-enum.ts)', () => {
    const committed = readFileSync(MANIFEST, 'utf8');
    assert.equal(committed, manifestWithPointEnum(committed), 'package.json is stale');
  });

  it('activates on hook modules and Python, and points at files that ship', () => {
    for (const e of ['workspaceContains:**/hooks.py', 'workspaceContains:**/hooks/*.py', 'onLanguage:python'])
      assert.ok(pkg.activationEvents.includes(e), e);
    assert.equal(pkg.main, './dist/extension.js');
    // The scaffold snippets are the server's completion items (their imports merge into the module's).
    assert.equal(contributes.snippets, undefined, 'no plain snippets: they would paste imports mid-file');
    assert.ok(existsSync(join(root, contributes.viewsContainers.activitybar[0].icon)));
    const urls = [...contributes.jsonValidation, ...contributes.yamlValidation].map(
      (v: { url: string }) => v.url,
    );
    assert.deepEqual([...new Set(urls)].sort(), [
      './schemas/mantle-scenario.schema.json',
      './schemas/payload.schema.json',
      './schemas/scenario.schema.json',
    ]);
  });

  it('the icon is a 128×128 PNG', () => {
    const png = readFileSync(join(root, pkg.icon));
    assert.equal(png.subarray(1, 4).toString(), 'PNG');
    assert.equal(png.readUInt32BE(16), 128);
    assert.equal(png.readUInt32BE(20), 128);
  });

  it('.vscodeignore ships the bundles, WASMs, Python host, schemas, snippets and docs, and nothing else', () => {
    const lines = readFileSync(join(root, '.vscodeignore'), 'utf8')
      .split('\n')
      .filter((l) => l && !l.startsWith('#'));
    assert.equal(lines[0], '**');
    for (const keep of [
      '!dist/extension.js',
      '!dist/server.js',
      '!dist/server-main.js',
      '!dist/discover-worker.js',
      '!dist/cli.js',
      '!dist/*.wasm',
      '!dist/python/**',
      '!schemas/*.json',
      '!snippets/python.json',
      '!README.md',
      '!docs/rules/*.md',
      '!media/walkthrough/*.md',
      '!LICENSE',
    ]) {
      assert.ok(lines.includes(keep), keep);
    }
    assert.ok(existsSync(join(root, 'LICENSE')));
  });

  it('the packaged file list (vsce ls) carries every rule page the extension shows, docs/rules/<code>.md', () => {
    const vsce = join(root, 'node_modules', '@vscode', 'vsce', 'vsce');
    const listed = execFileSync(process.execPath, [vsce, 'ls', '--no-dependencies'], {
      cwd: root,
      encoding: 'utf8',
    })
      .split('\n')
      .map((l) => l.trim());
    for (const rule of RULES)
      assert.ok(listed.includes(`docs/rules/${rule.code}.md`), `docs/rules/${rule.code}.md`);
    assert.ok(listed.includes('README.md'), listed.join());
    assert.ok(
      !listed.some((f) => f.startsWith('docs/') && !f.startsWith('docs/rules/')),
      'only the rule pages of docs/',
    );
  });

  it('dist/extension.js requires nothing but vscode and Node built-ins (so --no-dependencies is right)', (t) => {
    const bundle = join(root, 'dist', 'extension.js');
    if (!existsSync(bundle)) return t.skip('not built (npm run build)');
    const required = new Set(
      [...readFileSync(bundle, 'utf8').matchAll(/\brequire\("([^"]+)"\)/g)].map((m) => m[1]!),
    );
    const builtins = new Set(builtinModules.flatMap((m) => [m, `node:${m}`]));
    const external = [...required].filter((m) => m !== 'vscode' && !builtins.has(m));
    assert.deepEqual(external, []);
    assert.ok(required.has('vscode'));
  });
});
