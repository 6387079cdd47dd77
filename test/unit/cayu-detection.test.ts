// Cayu hook classes are found under every public path of the real `cayu` package (cayu,
// cayu.runtime, cayu.runtime.hooks, cayu.observability, cayu.observability.hooks), aliased or
// not, and at any depth (test functions, factories, branches, nested classes). The fixtures
// follow the shapes of the hook classes in cayu-dev/cayu's own tests.
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { analyseModule } from '../../runtime/analysis/module';
import { discover, nodeFs } from '../../runtime/workspace/discovery';
import { locateHook } from '../../runtime/engine/hook-locator';
import { cayuHookClasses } from '../../runtime/python/hooks';
import { hooksmith, ROOT } from './cli-check-helpers';
import { modelOf, py } from './python/helpers';

const DIR = join(ROOT, 'test', 'unit', 'fixtures', 'cayu-shapes');

/** Per fixture: every hook class as qualname, in the order the model lists them. */
const EXPECTED: Record<string, string[]> = {
  'aliased_paths.py': [
    'ViaModuleAlias',
    'ViaPackage',
    'ViaPlainImport',
    'ViaRuntimeAlias',
    'ViaTopLevelAlias',
    'ViaDocumentedPage',
    'build_hooks.<locals>.ViaLocalImport',
  ],
  'profile_fixtures.py': [
    'CompletionRecorder',
    'BlockingCompletion',
    'make_failure_hook.<locals>.FailOnCompletion',
    'Harness.InnerRecorder',
  ],
  'test_runtime_style.py': [
    'SessionFailedRecorder',
    'test_hooks_run_only_for_their_agent.<locals>.NamedRecorder',
    'test_before_tool_call_rewrites_arguments.<locals>.RewriteArguments',
    'test_after_tool_call_replaces_result.<locals>.ReplaceResult',
    'test_after_tool_call_replaces_result.<locals>.WaitsForRelease',
    'test_blocking_hook_inside_a_branch.<locals>.BlockShell',
  ],
};

const qualname = (c: { cls: { name: string; enclosing?: string } }) =>
  c.cls.enclosing === undefined ? c.cls.name : `${c.cls.enclosing}.${c.cls.name}`;

test('every hook class of the fixtures is found: 17 classes, 8 of them nested, every import path', async () => {
  const files = readdirSync(DIR)
    .filter((f) => f.endsWith('.py'))
    .sort();
  assert.deepEqual(files, Object.keys(EXPECTED).sort());
  let total = 0;
  let nested = 0;
  for (const f of files) {
    const text = readFileSync(join(DIR, f), 'utf8');
    const hooks = cayuHookClasses(await modelOf(text, f));
    assert.deepEqual(hooks.map(qualname), EXPECTED[f], f);
    total += hooks.length;
    nested += hooks.filter((h) => !h.runnable).length;
  }
  assert.equal(total, 17);
  assert.equal(nested, 8);
});

test('the phases of nested and inherited hook classes are matched', async () => {
  const text = readFileSync(join(DIR, 'profile_fixtures.py'), 'utf8');
  const hooks = cayuHookClasses(await modelOf(text, 'profile_fixtures.py'));
  assert.deepEqual(
    hooks.map((h) => [h.name, h.base.text, h.phases.map((p) => p.phase.id)]),
    [
      ['CompletionRecorder', 'RuntimeHook', ['after_session_completed']],
      ['BlockingCompletion', 'CompletionRecorder', ['after_session_completed']],
      ['fail-on-completion', 'RuntimeHook', ['after_session_completed']],
      ['InnerRecorder', 'RuntimeHook', ['after_session_failed']],
    ],
  );
});

test('discovery keeps every fixture, and check analyses them with no problem (exit 0)', () => {
  const found = discover([DIR], nodeFs);
  assert.deepEqual(
    found.agents.flatMap((a) => a.cayuModules.map((p) => p.slice(DIR.length + 1))).sort(),
    Object.keys(EXPECTED).sort(),
  );
  const r = hooksmith(['check', DIR]);
  assert.equal(r.code, 0, r.stdout + r.stderr);
  assert.match(r.stdout, /no problems in 3 files checked/);
});

test('a file importing from cayu.runtime is checked (not "0 files checked")', () => {
  const r = hooksmith(['check', join(DIR, 'test_runtime_style.py')]);
  assert.equal(r.code, 0, r.stdout + r.stderr);
  assert.match(r.stdout, /no problems in 1 file checked/);
});

test('a nested hook class is analysed by the rules but is not runnable by name', async () => {
  const m = await modelOf(py`
    from cayu.runtime import RuntimeHook as RH
    def make():
        class Inner(RH):
            def after_session_completed(self, context):
                return None
        return Inner()
    class Outer(RH):
        async def after_session_completed(self, context):
            return None
  `);
  const hooks = cayuHookClasses(m);
  assert.deepEqual(
    hooks.map((h) => [qualname(h), h.runnable]),
    [
      ['Outer', true],
      ['make.<locals>.Inner', false],
    ],
  );
  assert.equal(locateHook(m, 'Outer.after_session_completed').ok, true);
  const inner = locateHook(m, 'Inner.after_session_completed');
  assert.equal(inner.ok, false);
  const found = analyseModule({
    path: 'hooks.py',
    text: '',
    module: m,
    agentModules: [m],
    isMantleModule: false,
  });
  assert.deepEqual(
    found.map((d) => [d.code, d.range.start.line]),
    [['cayu-sync-method', 3]],
  );
});

test('a class named RuntimeHook from elsewhere, or a local RuntimeHook, is no Cayu hook', async () => {
  const m = await modelOf(py`
    from somewhere import RuntimeHook
    import cayu.tools as tools
    def f():
        class A(RuntimeHook):
            async def before_tool_call(self, context): ...
        class B(tools.RuntimeHook):
            async def before_tool_call(self, context): ...
  `);
  assert.deepEqual(cayuHookClasses(m), []);
});
