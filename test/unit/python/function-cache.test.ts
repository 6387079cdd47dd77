// The def cache (runtime/python/function-cache.ts) must never change a model: after any
// sequence of builds, a module's model equals the one built with an empty cache.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { buildEachPathOnce, cachingFor, clearFunctionCache } from '../../../runtime/python/function-cache';
import type { HookModule } from '../../../runtime/python/model';
import { snapshotSources } from './model-snapshot-sources';
import { fn, modelOf } from './helpers';

async function cold(src: string): Promise<HookModule> {
  clearFunctionCache();
  return modelOf(src);
}

/** Builds every text in turn with the cache warm from the previous ones; each must match a cold build. */
async function assertSameAsCold(texts: string[]): Promise<void> {
  clearFunctionCache();
  const warm: HookModule[] = [];
  for (const t of texts) warm.push(await modelOf(t));
  for (const t of texts) warm.push(await modelOf(t)); // second round: all hits
  for (let i = 0; i < warm.length; i++) {
    const t = texts[i % texts.length] as string;
    assert.deepEqual(warm[i], await cold(t), `text ${i % texts.length}, round ${i < texts.length ? 1 : 2}`);
  }
}

const BASE = [
  'from rasa.mantle.hooks import on_tool_call, ToolCallPayload',
  'import json',
  '',
  '@on_tool_call(timeout_ms=10)',
  'async def a(p: ToolCallPayload) -> None:',
  '    from os import path',
  '    json.dumps(p.arguments)',
  '    await path.join("x")',
  '',
  'class H:',
  '    async def before_tool(self, ctx: "ToolCallPayload"):',
  '        import re',
  '        return re.compile(ctx)',
  '',
  'async def b(p):',
  '    raise ValueError(p)',
  '',
].join('\n');

test('edits that keep, move, re-import or break defs build the same model as a cold build', async () => {
  await assertSameAsCold([
    BASE,
    // A keystroke inside one def.
    BASE.replace('json.dumps(p.arguments)', 'json.dumps(p.argument)'),
    // A line inserted above: every def moves down.
    '# header\n' + BASE,
    // Characters inserted before a def on its line (moves its columns only).
    BASE.replace('async def b(p):', 'async  def b(p):'),
    // Same defs, another scope: `json` now resolves elsewhere.
    BASE.replace('import json', 'import simplejson as json'),
    BASE.replace('import json', 'from cayu.observability import *\nimport json'),
    // An import after the defs still binds their names.
    BASE + 'from rasa.mantle.hooks import on_tool_call as ToolCallPayload\n',
    // A syntax error in one def and elsewhere.
    BASE.replace('raise ValueError(p)', 'raise ValueError(p'),
    BASE.replace('class H:', 'class H(:'),
    // Same text as CRLF and with lone CRs.
    BASE.replace(/\n/g, '\r\n'),
    BASE.replace(/\n/g, '\r'),
    // A def moved into a class (className differs) with the same text and position.
    BASE.replace(
      'class H:\n    async def before_tool',
      'class H:\n    async def b(p):\n        raise ValueError(p)\n    async def before_tool',
    ),
  ]);
});

test('local imports of cached defs are replayed into the model', async () => {
  clearFunctionCache();
  const first = await modelOf(BASE);
  const again = await modelOf(BASE);
  assert.deepEqual(again.imports, first.imports);
  assert.deepEqual(
    again.imports.filter((b) => !b.moduleLevel).map((b) => b.localName),
    ['path', 're'],
  );
  assert.equal(fn(again, 'a').body.calls[0]?.callee.qualified, 'json.dumps');
});

test('every snapshot source builds the same model warm as cold', async () => {
  await assertSameAsCold(Object.values(snapshotSources()));
});

test('a path is cached from its second build on (a one-shot check keeps nothing alive)', async () => {
  clearFunctionCache();
  const [m1, m2, m3] = [
    await modelOf(BASE, 'once.py'),
    await modelOf(BASE, 'once.py'),
    await modelOf(BASE, 'once.py'),
  ];
  assert.notEqual(fn(m2, 'a'), fn(m1, 'a'));
  assert.equal(fn(m3, 'a'), fn(m2, 'a'));
  assert.notEqual(fn(await modelOf(BASE, 'other.py'), 'a'), fn(m3, 'a'));
});

test('a one-shot process (hooksmith check) caches nothing and remembers no path; clearFunctionCache undoes that', () => {
  clearFunctionCache();
  assert.equal(cachingFor('/a.py'), false, 'first build of a path');
  assert.equal(cachingFor('/a.py'), true, 'its rebuild (the language server after an edit)');
  buildEachPathOnce();
  assert.equal(cachingFor('/a.py'), false);
  assert.equal(cachingFor('/a.py'), false);
  clearFunctionCache();
  assert.equal(cachingFor('/b.py'), false);
  assert.equal(cachingFor('/b.py'), true);
  clearFunctionCache();
});
