// Issue #24 item 13 (the built CLI, a real python3): an empty folder named like an engine package
// (`cayu/` at a git repository's root, `rasa/` in an agent) is a namespace package, not an
// installed engine: the engine's imports are "not installed" information, never import-error errors.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';

const cli = join(__dirname, '..', '..', 'dist', 'cli.js');
const dir = mkdtempSync(join(tmpdir(), 'hooksmith-namespace-'));
after(() => rmSync(dir, { recursive: true, force: true }));

function check(cwd: string, file: string) {
  return spawnSync(process.execPath, [cli, 'check', file, '--format', 'json', '--verbose'], {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, HOOKSMITH_NO_CACHE: '1' },
  });
}

const findings = (out: string) =>
  (JSON.parse(out) as { rule: string; severity: string; message: string }[]).filter(
    (f) => f.rule === 'import-error',
  );

test('an empty cayu/ at a git repository root: a Cayu module importing cayu.observability gets information, not an error', () => {
  const repo = join(dir, 'repo');
  mkdirSync(join(repo, '.git'), { recursive: true });
  mkdirSync(join(repo, 'cayu'));
  writeFileSync(
    join(repo, 'audit.py'),
    'from cayu.observability import RuntimeHook\n\n\nclass Audit(RuntimeHook):\n    name = "audit"\n',
  );
  const r = check(repo, 'audit.py');
  assert.equal(r.status, 0, r.stdout + r.stderr);
  const f = findings(r.stdout);
  assert.ok(
    f.every((x) => x.severity === 'information'),
    JSON.stringify(f),
  );
});

test('an empty rasa/ in an agent: its Mantle module importing rasa.mantle.hooks gets information, not an error', () => {
  const agent = join(dir, 'agent');
  mkdirSync(join(agent, 'rasa'), { recursive: true });
  writeFileSync(join(agent, 'config.yml'), 'recipe: default.v1\n');
  writeFileSync(
    join(agent, 'hooks.py'),
    'from rasa.mantle.hooks import ToolCallPayload, modify_tool_call\n\n\n@modify_tool_call()\n' +
      'async def guard(call: ToolCallPayload) -> ToolCallPayload:\n    return call\n',
  );
  const r = check(agent, '.');
  assert.equal(r.status, 0, r.stdout + r.stderr);
  assert.ok(
    findings(r.stdout).every((x) => x.severity === 'information'),
    r.stdout,
  );
});
