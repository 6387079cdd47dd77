// `hooksmith check a.py b.py …` (what pre-commit runs with every staged file): a named file is
// checked as a hook module only when the folder scan would find it to be one — it defines a
// RuntimeHook subclass, registers a Mantle hook, or is an agent's hooks.py / hooks/**.py. Any
// other Python file passes silently (#41: naming the 891 files of the cayu repository gave
// import-error errors in 50 files that define no hook); --verbose says why it was skipped.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { hooksmith } from './cli-check-helpers';

interface Finding {
  file: string;
  line: number;
  code: string;
  severity: string;
}

/** A repository holding an agent, a loose Cayu hook module and ordinary Python code. */
function mixedRepository(): string {
  const repo = mkdtempSync(join(tmpdir(), 'hooksmith-named-'));
  const write = (rel: string, text: string) => {
    mkdirSync(join(repo, rel, '..'), { recursive: true });
    writeFileSync(join(repo, rel), text);
  };
  // Not hook modules: each would give an error if it were checked as one.
  write('cli/main.py', 'import httpx_not_installed_anywhere\n\nprint(httpx_not_installed_anywhere)\n');
  write(
    'tests/test_store.py',
    'import psycopg_not_installed_anywhere\nfrom examples._advanced_support import x\n',
  );
  write('agent/actions.py', 'import requests_not_installed_anywhere\n');
  write('agent/hooks/__init__.py', 'import nothing_here_either\n');
  write('scripts/mentions.py', '# RuntimeHook is only named in a comment\nimport nope_not_installed\n');
  // Hook modules: each has one finding that proves it was checked.
  write(
    'agent/hooks.py',
    'from rasa.mantle.hooks import ToolCallPayload, modify_tool_call\n\n\n' +
      '@modify_tool_call\nasync def guard(call: ToolCallPayload) -> ToolCallPayload:\n    return call\n',
  );
  write(
    'agent/hooks/extra.py',
    'import time\n\nfrom rasa.mantle.hooks import ToolResultPayload, on_tool_result\n\n\n' +
      '@on_tool_result()\nasync def log(result: ToolResultPayload) -> None:\n    time.sleep(1)\n',
  );
  write(
    'service/guard.py',
    'from cayu.observability import RuntimeHook, ToolCallHookContext\n\n\n' +
      'class Guard(RuntimeHook):\n    def after_tool_call(self, context: ToolCallHookContext) -> None:\n        return None\n',
  );
  write(
    'loose_mantle.py',
    'from rasa.mantle.hooks import TurnStartedPayload, on_turn_started\nimport nope_not_installed_x\n\n\n' +
      '@on_turn_started()\nasync def seen(payload: TurnStartedPayload) -> None:\n    return None\n',
  );
  return repo;
}

const ALL = [
  'cli/main.py',
  'tests/test_store.py',
  'agent/actions.py',
  'agent/hooks/__init__.py',
  'scripts/mentions.py',
  'agent/hooks.py',
  'agent/hooks/extra.py',
  'service/guard.py',
  'loose_mantle.py',
];

describe('check with files named on the command line', () => {
  const repo = mixedRepository();

  it('reports only in hook modules; every other named file passes', () => {
    const r = hooksmith(['check', '--format', 'json', ...ALL], repo);
    const findings = JSON.parse(r.stdout) as Finding[];
    const files = [...new Set(findings.map((f) => f.file))].sort();
    assert.deepEqual(files, [
      'agent/hooks.py',
      'agent/hooks/extra.py',
      'loose_mantle.py',
      'service/guard.py',
    ]);
    const codes = (file: string) => findings.filter((f) => f.file === file).map((f) => f.code);
    assert.deepEqual(codes('agent/hooks.py'), ['missing-parentheses']);
    assert.deepEqual(codes('agent/hooks/extra.py'), ['blocking-call']);
    assert.deepEqual(codes('service/guard.py'), ['cayu-sync-method']);
    assert.deepEqual(codes('loose_mantle.py'), ['import-error']);
    assert.equal(r.code, 1);
  });

  it('a commit that touches only ordinary Python files passes (exit 0, nothing printed)', () => {
    const plain = ['cli/main.py', 'tests/test_store.py', 'agent/actions.py', 'scripts/mentions.py'];
    const r = hooksmith(['check', '--format', 'json', ...plain], repo);
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(JSON.parse(r.stdout), []);
    assert.equal(r.stderr, '');
  });

  it('--verbose says why each named file was skipped', () => {
    const r = hooksmith(
      ['check', '--verbose', '--no-cpython', 'cli/main.py', 'agent/hooks/__init__.py'],
      repo,
    );
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, /skipped .*cli[\\/]main\.py: not a hook module \(no RuntimeHook subclass/);
  });
});
