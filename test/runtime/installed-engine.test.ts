// The engine as the user has it installed: a fake rasa-pro 3.22 (rasa/mantle/hooks.py and its
// dist-info) on PYTHONPATH. `hooksmith check` reads what it exports once per interpreter (then
// from the cache), follows it for unknown-import and not-wired, says how it differs from the
// bundled catalogue under --verbose, and resolves imports with the same interpreter (import-error).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { makeFakeRasaPro } from './fixtures/fake-rasa-pro';

const root = join(__dirname, '..', '..');
const cli = join(root, 'dist', 'cli.js');
let dir: string;

before(() => {
  if (!existsSync(cli))
    spawnSync(process.execPath, [join(root, 'scripts/build.mjs')], { cwd: root, stdio: 'inherit' });
  dir = mkdtempSync(join(tmpdir(), 'hooksmith-installed-'));
  makeFakeRasaPro(join(dir, 'site'), '3.22.0');
  const agent = join(dir, 'agent');
  mkdirSync(agent);
  writeFileSync(
    join(agent, 'hooks.py'),
    `import not_installed_anywhere
from rasa.mantle.hooks import IncomingMessagePayload, on_incoming_message, on_session_closed


@on_incoming_message()
async def log_incoming(message: IncomingMessagePayload) -> None:
    return None
`,
  );
});
after(() => rmSync(dir, { recursive: true, force: true }));

function check(env: NodeJS.ProcessEnv) {
  const r = spawnSync(process.execPath, [cli, 'check', join(dir, 'agent'), '--format', 'json', '--verbose'], {
    cwd: root,
    encoding: 'utf8',
    env: { ...process.env, HOOKSMITH_NO_CACHE: '', HOOKSMITH_CACHE_DIR: join(dir, 'cache'), ...env },
  });
  return {
    code: r.status,
    findings: JSON.parse(r.stdout) as { code: string; line: number; severity: string }[],
    stderr: r.stderr,
  };
}

test('check follows the installed rasa-pro 3.22: its exports, its wired points, its difference noted', () => {
  const r = check({ PYTHONPATH: join(dir, 'site') });
  assert.equal(r.code, 1, r.stderr);
  // Only the import nothing provides: on_session_closed exists in 3.22, incoming_message is invoked,
  // and rasa.mantle.hooks resolves (no shim information).
  assert.deepEqual(
    r.findings.map((f) => `${f.line}:${f.code}:${f.severity}`),
    ['1:import-error:error'],
  );
  assert.match(
    r.stderr,
    /installed engine: rasa-pro 3\.22\.0 exports names the catalogue \(rasa-pro 3\.21\) lacks: on_session_closed/,
  );
  assert.match(r.stderr, /IncomingMessagePayload fields differ from the catalogue \(added: language\)/);
  // Read once per interpreter: remembered beside the syntax verdicts.
  assert.ok(readdirSync(join(dir, 'cache')).some((f) => f.startsWith('environment-')));
  const again = check({ PYTHONPATH: join(dir, 'site') });
  assert.deepEqual(again.findings, r.findings);
});

// rasa-pro 3.21 invokes incoming/outgoing text too: no not-wired finding (engine-lines/rasa-pro-3.21.json).
test('without the package: the catalogue (3.21) applies and the shim stands in, said as information', () => {
  const r = check({ PYTHONPATH: '' });
  const got = r.findings.map((f) => `${f.line}:${f.code}:${f.severity}`).sort();
  assert.deepEqual(got, ['1:import-error:error', '2:import-error:information', '2:unknown-import:error']);
});
