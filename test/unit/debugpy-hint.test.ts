// runtime/host/debug-listen.ts: the missing-debugpy message (#31 item 10) gives the one install
// command that fits the interpreter (apt only for Debian's own /usr/bin/python3, pip run by the
// interpreter for a venv or pyenv), and the editor's wording never names the CLI's --python.
import assert from 'node:assert/strict';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { debugpyInstallCommand, debugpyInstallHint, missingDebugpy } from '../../runtime/host/debug-listen';
import { running } from '../runtime/fixtures/processes';
import { pythonWith } from '../python-envs';

test('Debian’s interpreter: apt; a venv or pyenv interpreter: its own pip', () => {
  assert.equal(debugpyInstallCommand('/usr/bin/python3'), 'sudo apt-get install python3-debugpy');
  assert.equal(debugpyInstallCommand('/usr/bin/python3.11'), 'sudo apt-get install python3-debugpy');
  assert.equal(
    debugpyInstallCommand('/home/u/.pyenv/versions/3.11.7/bin/python3'),
    '/home/u/.pyenv/versions/3.11.7/bin/python3 -m pip install debugpy',
  );
  assert.equal(
    debugpyInstallCommand('/work/agent/.venv/bin/python'),
    '/work/agent/.venv/bin/python -m pip install debugpy',
  );
});

test('one command, not both; the editor’s hint names no --python', () => {
  const editor = debugpyInstallHint('/work/agent/.venv/bin/python', 'editor');
  assert.doesNotMatch(editor, /--python/);
  assert.doesNotMatch(editor, /apt-get/);
  assert.match(editor, /hooksmith\.pythonPath/);
  assert.match(debugpyInstallHint('/usr/bin/python3', 'cli'), /--python/);
  assert.doesNotMatch(debugpyInstallHint('/usr/bin/python3', 'cli'), /pip install/);
});

const withDebugpy = pythonWith(['debugpy'], { envs: ['tools'] }).python;

// #34 item 14: the check is bounded like every question to an interpreter, and a hanging one is
// named as hanging (not as missing debugpy), its whole process group killed.
describe('missingDebugpy, against real processes', { skip: process.platform === 'win32' }, () => {
  const dir = mkdtempSync(join(tmpdir(), 'hooksmith-debugpy-'));
  after(() => rmSync(dir, { recursive: true, force: true }));

  test('an interpreter that hangs: named as hanging within the bound, its children killed', async () => {
    const marker = `hooksmith-debugpy-hang-${process.pid}`;
    const hang = join(dir, 'hanging-python');
    writeFileSync(hang, `#!/bin/sh\nsleep 1000 # ${marker}\n`);
    chmodSync(hang, 0o755);
    const t0 = performance.now();
    const message = await missingDebugpy(hang, undefined, 'cli', 1000);
    const ms = performance.now() - t0;
    assert.match(
      message ?? '',
      /did not answer within 1 s of starting \(it hangs on start-up or on an import\)/,
    );
    assert.doesNotMatch(message ?? '', /install/);
    assert.ok(ms < 5000, `answered after ${Math.round(ms)} ms`);
    await new Promise((r) => setTimeout(r, 200));
    assert.equal(running(marker), 0, 'the hanging interpreter’s sleep outlived the check');
  });

  test('an interpreter without debugpy: "is not installed" with the install hint; a missing one: not found', async () => {
    const fake = join(dir, 'no-debugpy-python');
    writeFileSync(fake, `#!/bin/sh\necho "ModuleNotFoundError: No module named 'debugpy'" >&2\nexit 1\n`);
    chmodSync(fake, 0o755);
    assert.match(
      (await missingDebugpy(fake)) ?? '',
      /debugpy, which is not installed for .*pip install debugpy/,
    );
    assert.match((await missingDebugpy(join(dir, 'nowhere'))) ?? '', /not found — choose another/);
  });

  test(
    'an interpreter that imports debugpy: no message',
    { skip: !withDebugpy && 'no Python with debugpy' },
    async () => {
      assert.equal(await missingDebugpy(withDebugpy!), undefined);
    },
  );
});
