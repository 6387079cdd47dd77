// What `hooksmith check` could not see is never a silent "no problems" (#16 items 5 and 16): an
// unreadable folder or root is named and the run exits 2 (the findings of the rest still
// printed); a FIFO or a symlink loop given as PATH is named as such (exit 2, nothing checked); a
// file with two byte-order marks fails as `import` fails; text output shows control characters
// from file names and messages as escapes. The real CLI bundle, a real python3.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { printable } from '../../runtime/cli/printable';
import { cliBundle, hooksmith, type CliRun } from './cli-check-helpers';

const GOOD =
  'from rasa.mantle.hooks import TurnStartedPayload, on_turn_started\n\n\n@on_turn_started()\nasync def started(payload: TurnStartedPayload) -> None:\n    return None\n';
const SYNC =
  'from rasa.mantle.hooks import TurnStartedPayload, on_turn_started\n\n\n@on_turn_started()\ndef started(payload: TurnStartedPayload) -> None:\n    return None\n';

/**
 * The CLI as a user without root's rights: root reads a folder at mode 000 anyway, so under root
 * the run drops to `nobody` (setpriv); skipped where neither is possible.
 */
function asUser(args: string[], cwd: string): CliRun | undefined {
  const root = process.getuid?.() === 0;
  if (root && spawnSync('setpriv', ['--version']).status !== 0) return undefined;
  const bundle = cliBundle();
  chmodSync(dirname(bundle), 0o755);
  const command = root
    ? ['setpriv', '--reuid=65534', '--regid=65534', '--clear-groups', process.execPath, bundle, ...args]
    : [process.execPath, bundle, ...args];
  const r = spawnSync(command[0]!, command.slice(1), { cwd, encoding: 'utf8', timeout: 60_000 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe('hooksmith check says what it could not see', () => {
  let dir: string;
  const put = (rel: string, text: string | Buffer) => {
    mkdirSync(dirname(join(dir, rel)), { recursive: true });
    writeFileSync(join(dir, rel), text);
  };
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'hooksmith-unseen-'));
    chmodSync(dir, 0o755);
  });
  after(() => {
    spawnSync('chmod', ['-R', 'u+rwx', dir]);
    rmSync(dir, { recursive: true, force: true });
  });

  it('a hooks/ folder at mode 000: named on stderr, exit 2, the readable files still checked', (t) => {
    put('agent/hooks.py', SYNC);
    put('agent/hooks/locked.py', GOOD);
    chmodSync(join(dir, 'agent/hooks'), 0o000);
    try {
      const r = asUser(['check', 'agent', '--format', 'json'], dir);
      if (!r) return t.skip('cannot drop root rights here');
      assert.equal(r.code, 2, r.stderr);
      assert.match(
        r.stderr,
        /cannot read folder .*agent\/hooks: permission denied; its files are not checked/,
      );
      const findings = JSON.parse(r.stdout) as { file: string; code: string }[];
      assert.deepEqual(
        findings.map((f) => [f.file, f.code]),
        [['agent/hooks.py', 'sync-handler']],
        'what could be read is still reported',
      );
    } finally {
      chmodSync(join(dir, 'agent/hooks'), 0o755);
    }
  });

  it('an unreadable root: not "0 files checked" and exit 0, but named and exit 2', (t) => {
    put('closed/hooks.py', GOOD);
    chmodSync(join(dir, 'closed'), 0o000);
    try {
      const r = asUser(['check', 'closed'], dir);
      if (!r) return t.skip('cannot drop root rights here');
      assert.equal(r.code, 2);
      assert.match(r.stderr, /cannot read folder .*closed: permission denied/);
    } finally {
      chmodSync(join(dir, 'closed'), 0o755);
    }
  });

  it('a FIFO or a looping symlink as PATH: said as such, exit 2, nothing checked', (t) => {
    if (spawnSync('mkfifo', [join(dir, 'pipe.py')]).status !== 0) return t.skip('no mkfifo');
    symlinkSync('loop-b', join(dir, 'loop-a'));
    symlinkSync('loop-a', join(dir, 'loop-b'));
    const fifo = hooksmith(['check', 'pipe.py'], dir);
    assert.equal(fifo.code, 2);
    assert.match(fifo.stderr, /cannot check pipe\.py: not a regular file or folder \(a FIFO/);
    assert.equal(fifo.stdout, '');
    const loop = hooksmith(['check', 'loop-a'], dir);
    assert.equal(loop.code, 2);
    assert.match(loop.stderr, /cannot check loop-a: a loop of symbolic links/);
    assert.doesNotMatch(fifo.stderr + loop.stderr, /no such file/);
  });

  it('a file with two byte-order marks fails as `import` fails, with or without CPython', () => {
    put(
      'bom/hooks.py',
      Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf, 0xef, 0xbb, 0xbf]), Buffer.from(GOOD)]),
    );
    put('bom/hooks/one_bom.py', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(GOOD)]));
    const python = spawnSync('python3', ['-c', 'import hooks'], { cwd: join(dir, 'bom'), encoding: 'utf8' });
    assert.match(python.stderr, /U\+FEFF/, 'CPython itself refuses the file');
    for (const extra of [[], ['--no-cpython']]) {
      const r = hooksmith(['check', 'bom', '--format', 'json', ...extra], dir);
      assert.equal(r.code, 1, extra.join(' '));
      const findings = JSON.parse(r.stdout) as {
        file: string;
        line: number;
        column: number;
        message: string;
      }[];
      assert.deepEqual(
        findings.map((f) => [f.file, f.line, f.column, f.message]),
        [['bom/hooks.py', 1, 1, 'invalid non-printable character U+FEFF']],
        'one BOM is fine; two are a syntax error',
      );
    }
  });

  it('control characters in a file name or message are shown as escapes in text output', () => {
    put('esc/hooks/\u001b]0;pwned\u0007\u001b[2J.py', SYNC);
    const r = hooksmith(['check', 'esc'], dir);
    assert.equal(r.code, 1);
    assert.equal(r.stdout, printable(r.stdout), 'nothing left to escape');
    assert.match(r.stdout, /esc\/hooks\/\\x1b\]0;pwned\\x07\\x1b\[2J\.py:5:5: error sync-handler/);
  });

  it('printable(): C0, DEL, C1 and bidirectional controls escaped; newline, tab and text kept', () => {
    assert.equal(printable('a\tb\nc'), 'a\tb\nc');
    assert.equal(printable('\u001b[31mé😀\r\u007f\u009b'), '\\x1b[31mé😀\\x0d\\x7f\\x9b');
    assert.equal(printable('x\u202ey'), 'x\\u202ey');
  });
});
