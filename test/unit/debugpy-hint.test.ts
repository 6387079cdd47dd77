// runtime/host/debug-listen.ts: the missing-debugpy message (#31 item 10) gives the one install
// command that fits the interpreter (apt only for Debian's own /usr/bin/python3, pip run by the
// interpreter for a venv or pyenv), and the editor's wording never names the CLI's --python.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { debugpyInstallCommand, debugpyInstallHint } from '../../runtime/host/debug-listen';

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
