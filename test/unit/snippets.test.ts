// snippets/python.json: generated from the catalogue and up to date; every snippet, expanded
// with its default placeholders, is a hook the real parser + analyseModule accept with no
// error or warning, and CPython compiles it.
//
// Accepted information: `not-wired` on the incoming_message / outgoing_text hooks — those
// points are valid but not invoked by the engine today; the test asserts that it is reported
// exactly there, so the snippet is right and the rule still works.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { before, describe, it } from 'node:test';
import { analyseModule } from '../../runtime/analysis';
import { parseModule } from '../../runtime/analysis';
import { CAYU_PHASES, HOOK_DECORATORS } from '../../runtime/catalogue';
import { initParser, mantleHooks } from '../../runtime/python';
import { expandSnippet } from '../../runtime/scaffold/scaffold';
import { SNIPPETS_PATH, buildSnippets, snippetsJson, type Snippet } from '../../scripts/gen-snippets';

const committed = JSON.parse(readFileSync(SNIPPETS_PATH, 'utf8')) as Record<string, Snippet>;

function expanded(s: Snippet): string {
  return expandSnippet(s.body.join('\n')) + '\n';
}

function analyse(text: string, path: string, isMantleModule: boolean) {
  const module = parseModule(text, path);
  return {
    module,
    diagnostics: analyseModule({ path, text, module, agentModules: [module], isMantleModule }),
  };
}

describe('snippets/python.json', () => {
  before(() => initParser());

  it('is up to date with the catalogue (run: node --import tsx scripts/gen-snippets.ts)', () => {
    assert.equal(readFileSync(SNIPPETS_PATH, 'utf8'), snippetsJson());
  });

  it('has one snippet per decorator (18), per Cayu phase (5) and a RuntimeHook class', () => {
    const prefixes = Object.values(committed).flatMap((s) => s.prefix);
    assert.equal(HOOK_DECORATORS.length, 18);
    for (const d of HOOK_DECORATORS) {
      assert.ok(prefixes.includes(d.name), d.name);
      assert.ok(prefixes.includes(`hook-${d.name.replace(/_/g, '-')}`), d.name);
    }
    for (const p of CAYU_PHASES) assert.ok(prefixes.includes(`cayu-${p.id.replace(/_/g, '-')}`), p.id);
    assert.ok(prefixes.includes('cayu-runtime-hook'));
    assert.equal(Object.keys(committed).length, 18 + 5 + 1);
    assert.equal(new Set(prefixes).size, prefixes.length, 'prefixes are unique');
    for (const s of Object.values(committed))
      assert.match(s.description, /Scaffold Hook/, 'says how to merge imports');
  });

  it('every expanded line fits in 88 columns (black), long signatures wrapped', () => {
    for (const [name, s] of Object.entries(committed)) {
      for (const line of expanded(s).split('\n')) assert.ok(line.length <= 88, `${name}: ${line}`);
    }
  });

  for (const d of HOOK_DECORATORS) {
    it(`Mantle @${d.name}(): a registered hook with no error or warning`, () => {
      const snippet = buildSnippets()[`Mantle @${d.name}()`]!;
      const text = expanded(snippet);
      const { module, diagnostics } = analyse(text, '/agent/hooks.py', true);
      const hooks = mantleHooks(module);
      assert.equal(hooks.length, 1, text);
      assert.equal(hooks[0]!.hook.name, d.name);
      const serious = diagnostics.filter((x) => x.severity === 'error' || x.severity === 'warning');
      assert.deepEqual(
        serious.map((x) => `${x.code}: ${x.message}`),
        [],
        text,
      );
      const info = diagnostics.map((x) => x.code);
      assert.deepEqual(info, d.point.wired ? [] : ['not-wired'], text);
    });
  }

  for (const [name, snippet] of Object.entries(buildSnippets()).filter(([k]) => k.startsWith('Cayu'))) {
    it(`${name}: a RuntimeHook subclass with no diagnostic`, () => {
      const text = expanded(snippet);
      const { module, diagnostics } = analyse(text, '/agent/audit_hook.py', false);
      assert.equal(module.classes.length, 1, text);
      assert.ok(module.classes[0]!.methods.length >= 1);
      assert.deepEqual(
        diagnostics.map((x) => `${x.code}: ${x.message}`),
        [],
        text,
      );
    });
  }

  it('every expansion compiles under CPython', (t) => {
    const sources = Object.values(committed).map(expanded);
    const r = spawnSync(
      'python3',
      ['-c', 'import json,sys\nfor s in json.load(sys.stdin): compile(s, "<snippet>", "exec")\nprint("ok")'],
      {
        input: JSON.stringify(sources),
        encoding: 'utf8',
      },
    );
    if (r.error) return t.skip('python3 not available');
    assert.equal(r.stderr, '');
    assert.equal(r.stdout.trim(), 'ok');
  });
});

describe('snippet check sensitivity', () => {
  before(() => initParser());

  it('reports a broken variant (sync def, wrong return type), so a clean result means something', () => {
    const snippet = buildSnippets()['Mantle @modify_tool_call()']!;
    const broken = expanded(snippet).replace('async def', 'def').replace('-> ToolCallPayload:', '-> dict:');
    const codes = analyse(broken, '/agent/hooks.py', true).diagnostics.map((d) => d.code);
    assert.ok(codes.includes('sync-handler'), codes.join(', '));
    assert.ok(codes.includes('return-annotation'), codes.join(', '));
  });
});
