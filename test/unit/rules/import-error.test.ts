import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { resolveLocally } from '../../../runtime/cpython/rule-environment';
import type { RuleEnvironment } from '../../../runtime/rules/rule';
import { diagnose, expectAt, py, rangeText } from './helpers';
import { ruleTester } from './rule-tester';

/** An interpreter that has json and rasa-free site-packages; `unknown` names were never asked. */
function env(installed: string[], unknown: string[] = []): RuleEnvironment {
  return {
    python: '/usr/bin/python3',
    resolves: (m) => (unknown.includes(m) ? undefined : installed.includes(m)),
    reportShimmed: true,
  };
}

test('import-error: an unresolvable import, reported on the module name', async () => {
  const src = py`
    import json
    import no_such_module
    from requests_typo.adapters import HTTPAdapter
    from rasa.mantle.hooks import TurnStartedPayload, on_turn_started
  `;
  const diags = await diagnose('import-error', src, { environment: env(['json']) });
  expectAt(diags, ['2:8', '3:6', '4:6']);
  assert.equal(rangeText(src, diags[0]), 'no_such_module');
  assert.equal(rangeText(src, diags[1]), 'requests_typo.adapters');
  assert.equal(diags[0].severity, 'error');
  assert.match(diags[0].message, /cannot be imported by the selected Python interpreter/);
  // The shim provides rasa.mantle.hooks: information, with how to get the real package.
  assert.equal(diags[2].severity, 'information');
  assert.equal(diags[2].absentEnginePackage, 'rasa-pro');
  assert.equal(diags[0].absentEnginePackage, undefined);
  assert.match(diags[2].message, /Hooksmith's shim stands in for it.*pip install rasa-pro/);
});

test('import-error: quiet without an interpreter, for unanswered names, guarded and function-level imports', async () => {
  const src = py`
    import no_such_module
    try:
        import orjson
    except ImportError:
        orjson = None

    def f():
        import lazily_missing
  `;
  assert.deepEqual(await diagnose('import-error', src), []);
  assert.deepEqual(await diagnose('import-error', src, { environment: env([], ['no_such_module']) }), []);
  expectAt(await diagnose('import-error', src, { environment: env([]) }), ['1:8']);
});

const dir = mkdtempSync(join(tmpdir(), 'hooksmith-imports-'));
after(() => rmSync(dir, { recursive: true, force: true }));

test('import-error: agent code resolves from the files (root, lib/, relative), without python', () => {
  mkdirSync(join(dir, 'hooks', 'sub'), { recursive: true });
  mkdirSync(join(dir, 'lib', 'pii'), { recursive: true });
  writeFileSync(join(dir, 'lib', 'pii', '__init__.py'), '');
  writeFileSync(join(dir, 'lib', 'pii', 'redact.py'), '');
  writeFileSync(join(dir, 'hooks', 'shared.py'), '');
  writeFileSync(join(dir, 'hooks', 'sub', 'guard.py'), '');
  const file = join(dir, 'hooks', 'sub', 'guard.py');
  assert.equal(resolveLocally('lib.pii.redact', file, dir), true);
  assert.equal(resolveLocally('pii.redact', file, dir), true); // lib/ is on the path too
  assert.equal(resolveLocally('lib.pii.nothing', file, dir), false);
  assert.equal(resolveLocally('..shared', file, dir), true);
  assert.equal(resolveLocally('.missing', file, dir), false);
  assert.equal(resolveLocally('requests', file, dir), undefined); // the interpreter decides
});

test('import-error: without the engine installed, its modules and the packages it installs are not judged', async () => {
  // Real Cayu code imports much more of cayu than the shim serves; real Mantle modules import structlog,
  // which comes with rasa-pro. Neither can be checked in an interpreter without the engine.
  const cayuSrc = py`
    import httpx
    from cayu.providers import ProviderRegistry
    from cayu.runtime import RuntimeHook
    import no_such_module
  `;
  const cayu = await diagnose('import-error', cayuSrc, { environment: env([]) });
  expectAt(cayu, ['1:8', '2:6', '3:6', '4:8']);
  assert.deepEqual(
    cayu.map((d) => d.severity),
    ['information', 'information', 'information', 'error'],
  );
  assert.match(cayu[1]!.message, /comes with cayu, which is not installed.*pip install cayu/);
  // The package travels as data (the server groups these notices by it), never read out of the message.
  assert.deepEqual(
    cayu.map((d) => d.absentEnginePackage),
    ['cayu', 'cayu', 'cayu', undefined],
  );
  // A Cayu module's import error does not speak of rasa train.
  assert.match(cayu[3]!.message, /none of its hooks take part in a session/);
  // With the real cayu installed, a missing submodule is an error again.
  const installed = await diagnose('import-error', cayuSrc, {
    environment: env(['cayu', 'cayu.runtime', 'httpx']),
  });
  expectAt(installed, ['2:6', '4:8']);
  assert.ok(installed.every((d) => d.severity === 'error'));

  const mantleSrc = py`
    import structlog
    from rasa.mantle.hooks import TurnStartedPayload, on_turn_started
  `;
  const mantle = await diagnose('import-error', mantleSrc, { environment: env([]) });
  assert.deepEqual(
    mantle.map((d) => [d.severity, d.message.match(/rasa-pro/) !== null]),
    [
      ['information', true],
      ['information', true],
    ],
  );
  expectAt(await diagnose('import-error', mantleSrc, { environment: env(['rasa', 'rasa.mantle.hooks']) }), [
    '1:8',
  ]);
});

test("import-error: a loose (Cayu) file imports from its project's root, as a test runner would", () => {
  const project = join(dir, 'project');
  mkdirSync(join(project, 'tests', 'core'), { recursive: true });
  writeFileSync(join(project, 'pyproject.toml'), '[project]\nname = "p"\n');
  writeFileSync(join(project, 'tests', 'core', '_fixtures.py'), '');
  const file = join(project, 'tests', 'core', 'test_hooks.py');
  assert.equal(resolveLocally('tests.core._fixtures', file, undefined), true);
  assert.equal(resolveLocally('tests.core._missing', file, undefined), false);
  // Nothing above the project root counts; without a project, only the file's own folder.
  assert.equal(resolveLocally('project.tests', file, undefined), undefined);
  const bare = join(dir, 'bare', 'deep');
  mkdirSync(bare, { recursive: true });
  writeFileSync(join(dir, 'bare', 'helper.py'), '');
  assert.equal(resolveLocally('helper', join(bare, 'x.py'), undefined), undefined);
});

// As a table (rule-tester.ts): the message ids and where (#43 item 6); the text checks above pin the wording.
ruleTester('import-error', {
  valid: [
    { name: 'no interpreter known', code: 'import no_such_module\n' },
    { name: 'resolvable imports', code: 'import json\n', environment: env(['json']) },
    {
      name: 'a guarded import',
      code: 'try:\n    import orjson\nexcept ImportError:\n    orjson = None\n',
      environment: env([]),
    },
  ],
  invalid: [
    {
      name: 'a missing module, the shimmed engine and a package the engine installs',
      code: 'import no_such_module\nfrom rasa.mantle.hooks import on_turn_started\nimport structlog\n',
      environment: env([]),
      errors: [
        { messageId: 'cannotImport', line: 1, column: 8 },
        { messageId: 'shimmedEngineAbsent', line: 2, column: 6 },
        { messageId: 'engineDependencyAbsent', line: 3, column: 8 },
      ],
    },
  ],
});
