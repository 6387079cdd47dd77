// The shims held to the real modules: shim-api.json lists the public names, signatures and field
// sets of rasa.mantle.hooks (from the spec) and of the cayu hook API (from the cayu source);
// check_shim.py, run by a real python3 without site-packages, reports every gap. Then a Cayu hook
// module importing what real hook code imports runs under `hooksmith run`.
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { SHIM_MODULES } from '../../runtime/rules/import-error';

const root = join(__dirname, '..', '..');
const cli = join(root, 'dist', 'cli.js');
const conformance = join(__dirname, 'fixtures', 'conformance');
let dir: string;

before(() => {
  if (!existsSync(cli))
    spawnSync(process.execPath, [join(root, 'scripts/build.mjs')], { cwd: root, stdio: 'inherit' });
  dir = mkdtempSync(join(tmpdir(), 'hooksmith-conformance-'));
});
after(() => rmSync(dir, { recursive: true, force: true }));

test('the shims provide every listed public name, signature and field set', () => {
  const r = spawnSync(
    'python3',
    [
      '-I',
      '-S',
      join(conformance, 'check_shim.py'),
      join(root, 'runtime/host/python'),
      join(conformance, 'shim-api.json'),
    ],
    { encoding: 'utf8' },
  );
  assert.equal(r.status, 0, r.stderr);
  assert.deepEqual(JSON.parse(r.stdout), []);
});

test('import-error knows the modules the shims serve (SHIM_MODULES is shim_finder.SHIMS)', () => {
  const r = spawnSync(
    'python3',
    [
      '-I',
      '-S',
      '-c',
      'import sys; sys.path.insert(0, sys.argv[1]); from _hooksmith_host import shim_finder; print("\\n".join(shim_finder.SHIMS))',
      join(root, 'runtime/host/python'),
    ],
    { encoding: 'utf8' },
  );
  assert.equal(r.status, 0, r.stderr);
  assert.deepEqual(r.stdout.trim().split('\n').sort(), [...SHIM_MODULES].sort());
});

function run(
  args: string[],
  input: string,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [cli, ...args], { cwd: root });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(input);
  });
}

test('hooksmith run: a Cayu hook importing cayu.runtime, cayu._validation and cayu.core.* runs', async () => {
  const file = join(dir, 'guard_hooks.py');
  writeFileSync(
    file,
    `from cayu._validation import require_clean_nonblank
from cayu.core.events import EventType
from cayu.core.tools import ToolResult
from cayu.runtime import BeforeToolCallDecision, BeforeToolCallHookContext, RuntimeHook, RuntimeHookPhase

BLOCKED = "delete_account"


class Guard(RuntimeHook):
    async def before_tool_call(self, context: BeforeToolCallHookContext) -> BeforeToolCallDecision | None:
        name = require_clean_nonblank(context.tool_name, "tool_name")
        if name == BLOCKED and context.phase == RuntimeHookPhase.BEFORE_TOOL_CALL:
            return BeforeToolCallDecision(
                action="short_circuit",
                synthetic_result=ToolResult(content=f"{name} is off ({EventType.SESSION_COMPLETED})"),
            )
        return None
`,
  );
  const payload = JSON.stringify({ tool_name: 'delete_account', arguments: {} });
  const r = await run(
    ['run', `${file}::Guard.before_tool_call`, '--payload', '-', '--format', 'json'],
    payload,
  );
  assert.equal(r.code, 0, r.stderr + r.stdout);
  const result = JSON.parse(r.stdout) as {
    outcome: string;
    payload: { action: string; synthetic_result: { content: string } };
  };
  assert.equal(result.outcome, 'returned');
  assert.equal(result.payload.action, 'short_circuit');
  assert.equal(result.payload.synthetic_result.content, 'delete_account is off (session.completed)');
});

test('a name the shim does not provide: an ImportError that says so and how to install cayu', async () => {
  const file = join(dir, 'vault_hooks.py');
  writeFileSync(
    file,
    `from cayu.runtime.hooks import RuntimeHook
from cayu.vaults import SecretRedactor


class Redact(RuntimeHook):
    async def after_session_completed(self, context) -> None:
        return None
`,
  );
  const r = await run(['run', `${file}::Redact.after_session_completed`, '--payload', '-'], '{}');
  assert.equal(r.code, 2, r.stdout);
  assert.match(r.stderr, /cayu\.vaults is not provided by Hooksmith's shim of cayu/);
  assert.match(r.stderr, /pip install cayu/);
});
