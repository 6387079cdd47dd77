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

const root = join(__dirname, '..', '..');
const cli = join(root, 'dist', 'cli.js');
let dir: string;

const FAKE_HOOKS = `
class _Field:
    def __init__(self, required=False):
        self._required = required
    def is_required(self):
        return self._required

def _decorator(name):
    def factory(*, timeout_ms=None):
        return lambda fn: fn
    factory.__name__ = name
    return factory

_POINTS = ["turn_started", "turn_finished", "incoming_message", "model_request", "model_response",
           "tool_call", "tool_result", "knowledge_query", "knowledge_results", "outgoing_text", "session_closed"]
for _p in _POINTS:
    globals()["on_" + _p] = _decorator("on_" + _p)
    if _p not in ("turn_started", "turn_finished", "session_closed"):
        globals()["modify_" + _p] = _decorator("modify_" + _p)

class IncomingMessagePayload:
    model_fields = {"text": _Field(True), "language": _Field(), "sender_id": _Field(True), "call": _Field(), "channel": _Field()}

class TurnStartedPayload:
    model_fields = {"is_voice": _Field(), "turn_id": _Field(), "sender_id": _Field(True), "call": _Field(), "channel": _Field()}

class RetryModel(Exception):
    pass

class HookRejection(Exception):
    pass
`;

before(() => {
  if (!existsSync(cli))
    spawnSync(process.execPath, [join(root, 'scripts/build.mjs')], { cwd: root, stdio: 'inherit' });
  dir = mkdtempSync(join(tmpdir(), 'hooksmith-installed-'));
  const site = join(dir, 'site');
  mkdirSync(join(site, 'rasa', 'mantle'), { recursive: true });
  writeFileSync(join(site, 'rasa', '__init__.py'), '');
  writeFileSync(join(site, 'rasa', 'mantle', '__init__.py'), '');
  writeFileSync(join(site, 'rasa', 'mantle', 'hooks.py'), FAKE_HOOKS);
  mkdirSync(join(site, 'rasa_pro-3.22.0.dist-info'));
  writeFileSync(
    join(site, 'rasa_pro-3.22.0.dist-info', 'METADATA'),
    'Metadata-Version: 2.1\nName: rasa-pro\nVersion: 3.22.0\n',
  );
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

test('without the package: the catalogue (3.21) applies and the shim stands in, said as information', () => {
  const r = check({ PYTHONPATH: '' });
  const got = r.findings.map((f) => `${f.line}:${f.code}:${f.severity}`).sort();
  assert.deepEqual(got, [
    '1:import-error:error',
    '2:import-error:information',
    '2:unknown-import:error',
    '5:not-wired:information',
  ]);
});
