// The per-model indexes the rules share (runtime/python/module-facts.ts, python/hooks.ts) and
// the shortcuts built on them: each shortcut must skip only work that could find nothing.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { analyseModule, compareDiagnostics } from '../../../runtime/analysis/module';
import type { HookDiagnostic } from '../../../runtime/rules/diagnostics';
import { initParser } from '../../../runtime/python';
import type { HookModule, NameRef } from '../../../runtime/python/model';
import { RULES } from '../../../runtime/rules';
import { mantleHooks, modifyHooks, otherDecorators } from '../../../runtime/python/hooks';
import {
  allFunctions,
  boundNames,
  firstSegment,
  hasMantleWildcard,
  importRoots,
  importsAnyRoot,
} from '../../../runtime/python/module-facts';
import { locallyBound } from '../../../runtime/python/names';
import { perModel } from '../../../runtime/python/per-model';
import { hookModuleSource } from '../../../bench/generate';
import { diagnose, expectAt, parseModule, py } from './helpers';
import { SPEC_EXAMPLES } from './spec-examples';

const EXAMPLES = join(__dirname, '..', '..', '..', 'examples');

function pythonFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    return statSync(p).isDirectory() ? pythonFiles(p) : n.endsWith('.py') ? [p] : [];
  });
}

/** Every NameRef of a model (any object with text, range and a qualified name). */
function qualifiedRefs(model: HookModule): NameRef[] {
  const out: NameRef[] = [];
  const walk = (o: unknown): void => {
    if (!o || typeof o !== 'object') return;
    const r = o as Partial<NameRef>;
    if (typeof r.qualified === 'string' && typeof r.text === 'string' && r.range) out.push(r as NameRef);
    for (const v of Object.values(o)) walk(v);
  };
  walk({ functions: model.functions, classes: model.classes });
  return out;
}

test('importRoots: every qualified name in a model starts with an import root (what the rules skip work on)', async () => {
  await initParser();
  const sources = [
    ...pythonFiles(EXAMPLES).map((p) => ({ path: p, source: readFileSync(p, 'utf8') })),
    ...SPEC_EXAMPLES,
    { path: 'gen.py', source: hookModuleSource(400) },
    {
      path: 'forms.py',
      source: py`
        import os.path
        import time as clock
        from subprocess import run as sh
        from rasa.mantle.hooks import *
        from cayu.observability import RuntimeHook

        def f():
            from requests import get
            get("x")
            clock.sleep(1)
            sh(["ls"])
            os.path.join("a")
      `,
    },
  ];
  let refs = 0;
  for (const { path, source } of sources) {
    const model = parseModule(source, path);
    const roots = importRoots(model);
    for (const r of qualifiedRefs(model)) {
      refs++;
      assert.ok(
        roots.has(firstSegment(r.qualified!)),
        `${path}: ${r.text} → ${r.qualified} (roots ${[...roots].join(', ')})`,
      );
    }
  }
  assert.ok(refs > 200, `only ${refs} qualified references seen`);
});

test('module facts: bound names, import roots, all functions; each computed once per model', async () => {
  await initParser();
  const model = parseModule(py`
    import os.path
    from rasa.mantle import hooks as mh

    class Audit:
        def before(self): ...

    def helper(): ...
  `);
  assert.equal(boundNames(model), boundNames(model));
  assert.equal(importRoots(model), importRoots(model));
  assert.equal(allFunctions(model), allFunctions(model));
  for (const name of ['os', 'mh', 'Audit', 'helper']) assert.ok(locallyBound(model, name), name);
  assert.ok(!locallyBound(model, 'before'));
  assert.deepEqual([...importRoots(model)].sort(), ['os', 'rasa']);
  assert.ok(importsAnyRoot(model, ['time', 'os']));
  assert.ok(!importsAnyRoot(model, ['time', 'cayu']));
  assert.ok(!hasMantleWildcard(model));
  assert.ok(hasMantleWildcard(parseModule('from rasa.mantle.hooks import *\n')));
  assert.deepEqual(
    allFunctions(model).map((f) => f.name),
    ['helper', 'before'],
  );
  assert.equal(firstSegment('a.b.c'), 'a');
  assert.equal(firstSegment('abc'), 'abc');
});

test('hook index: hooks, modify hooks and the decorators unknown-hook-point must look at', async () => {
  await initParser();
  const model = parseModule(py`
    import functools
    from rasa.mantle.hooks import ToolCallPayload, modify_tool_call, on_tool_call, on_turn_start

    @functools.cache
    @on_tool_call(timeout_ms=0)
    async def a(call: ToolCallPayload) -> None: ...

    @modify_tool_call(timeout_ms=250)
    async def b(call: ToolCallPayload) -> ToolCallPayload: ...

    @on_turn_start()
    @on_tool_result(timeout_ms=50)
    async def c(payload): ...
  `);
  const hooks = mantleHooks(model);
  assert.equal(mantleHooks(model), hooks);
  // `on_tool_result` is not imported: still a hook (the signature rules run on it), default budget.
  assert.deepEqual(
    hooks.map((h) => [h.fn.name, h.hook.name, h.timeoutMs, h.unimported]),
    [
      ['a', 'on_tool_call', 100, false],
      ['b', 'modify_tool_call', 250, false],
      ['c', 'on_tool_result', 100, true],
    ],
  );
  assert.deepEqual(
    modifyHooks(model).map((h) => h.fn.name),
    ['b'],
  );
  assert.deepEqual(
    otherDecorators(model).map((d) => d.ref.text),
    ['functools.cache', 'on_turn_start', 'on_tool_result'],
  );
});

test('blocking-call: found without any blocking import (a builtin) and through an import made inside a function', async () => {
  const onlyBuiltin = py`
    from rasa.mantle.hooks import ToolCallPayload, on_tool_call

    @on_tool_call()
    async def ask(call: ToolCallPayload) -> None:
        input("?")
  `;
  expectAt(await diagnose('blocking-call', onlyBuiltin), ['5:5']);
  const localImport = py`
    from rasa.mantle.hooks import ToolCallPayload, on_tool_call

    @on_tool_call()
    async def nap(call: ToolCallPayload) -> None:
        from time import sleep as pause
        pause(1)
  `;
  expectAt(await diagnose('blocking-call', localImport), ['6:5']);
});

test('duplicate-modify-hook: a module without modify hooks gets nothing, its siblings still get theirs', async () => {
  const observer = py`
    from rasa.mantle.hooks import ToolCallPayload, on_tool_call

    @on_tool_call()
    async def watch(call: ToolCallPayload) -> None: ...
  `;
  const modify = (name: string) => py`
    from rasa.mantle.hooks import ToolCallPayload, modify_tool_call

    @modify_tool_call()
    async def ${name}(call: ToolCallPayload) -> ToolCallPayload:
        return call
  `;
  const siblings = { 'hooks/a.py': modify('a'), 'hooks/b.py': modify('b') };
  assert.deepEqual(
    await diagnose('duplicate-modify-hook', observer, { path: 'hooks/watch.py', siblings }),
    [],
  );
  const a = await diagnose('duplicate-modify-hook', modify('a'), {
    path: 'hooks/a.py',
    siblings: { 'hooks/watch.py': observer, 'hooks/b.py': modify('b') },
  });
  expectAt(a, ['3:1']);
  assert.match(a[0].message, /registered 2 times/);
});

test('compareDiagnostics: the same order as comparing every field with localeCompare', () => {
  const codes = [...RULES.map((r) => r.code), 'zz-unknown', 'a-unknown', 'syntax-error'];
  const files = ['/b/hooks.py', '/a/hooks.py', '/a/Hooks.py'];
  const diags: HookDiagnostic[] = [];
  let k = 0;
  for (const file of files) {
    for (const code of codes) {
      const line = (k * 7) % 3;
      const character = (k * 5) % 2;
      diags.push({
        code,
        file,
        severity: 'error',
        message: String(k++),
        range: { start: { line, character }, end: { line, character } },
      });
    }
  }
  const reference = (a: HookDiagnostic, b: HookDiagnostic) =>
    a.file.localeCompare(b.file) ||
    a.range.start.line - b.range.start.line ||
    a.range.start.character - b.range.start.character ||
    a.code.localeCompare(b.code);
  const shuffled = [...diags].reverse();
  assert.deepEqual(
    shuffled.sort(compareDiagnostics).map((d) => d.message),
    [...diags].sort(reference).map((d) => d.message),
  );
});

test('perModel: computed once per model, again for another model (a copy is another model)', async () => {
  await initParser();
  let calls = 0;
  const count = perModel((m) => {
    calls++;
    return m.functions.length;
  });
  const model = parseModule('def a(): ...\ndef b(): ...\n');
  const other = parseModule('def c(): ...\n');
  assert.equal(count(model), 2);
  assert.equal(count(other), 1);
  assert.equal(count(model), 2);
  assert.equal(calls, 2);
  assert.equal(count({ ...model }), 2);
  assert.equal(calls, 3);
});

test('analyseModule: Cayu rules skipped only where no name can resolve into Cayu', async () => {
  await initParser();
  const hook = (imports: string) =>
    `${imports}\n\nclass Audit(RuntimeHook):\n    def before_tool_call(self, context):\n        return None\n`;
  const codes = (text: string) => {
    const module = parseModule(text, '/a/runtime_hooks.py');
    return analyseModule({
      path: module.path,
      text,
      module,
      agentModules: [module],
      isMantleModule: false,
    }).map((d) => d.code);
  };
  assert.deepEqual(codes(hook('from cayu import *')), ['cayu-sync-method']);
  assert.deepEqual(codes(hook('import cayu.observability as obs\nRuntimeHook = obs.RuntimeHook')), []);
  assert.deepEqual(codes(hook('from cayu.observability import RuntimeHook')), ['cayu-sync-method']);
  // Unimported: not a RuntimeHook the Cayu rules can recognise, and a NameError at import (undefined-name).
  assert.deepEqual(codes(hook('import os')), ['undefined-name']);
});
