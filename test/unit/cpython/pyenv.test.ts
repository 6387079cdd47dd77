// pyenvTarget finds the interpreter a pyenv shim would exec by pyenv's rules, and steps aside
// (undefined: run the shim) wherever it could disagree with pyenv. Fake pyenv roots in a temp
// directory, plus this machine's own python3 when that is a pyenv shim.
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { directInterpreter, pyenvTarget } from '../../../runtime/cpython/pyenv';

const tmp = mkdtempSync(join(tmpdir(), 'hooksmith-pyenv-'));
after(() => rmSync(tmp, { recursive: true, force: true }));
let roots = 0;

/** The shim pyenv 2.x writes (pyenv rehash), for `root`. */
function shimScript(root: string): string {
  return [
    '#!/usr/bin/env bash',
    'set -e',
    '[ -n "$PYENV_DEBUG" ] && set -x',
    '',
    'program="${0##*/}"',
    '',
    `export PYENV_ROOT="${root}"`,
    'SHIM_PATH=${0%/*}',
    `if [[ $SHIM_PATH != "${root}/shims" ]]; then`,
    '  export _PYENV_SHIM_PATH="$SHIM_PATH"',
    'fi',
    `exec "${root}/libexec/pyenv" exec "$program" "$@"`,
    '',
  ].join('\n');
}

function executable(path: string, text = '#!/bin/sh\nexit 0\n'): void {
  writeFileSync(path, text);
  chmodSync(path, 0o755);
}

/** A pyenv root with a python3 shim and the given installed versions (each with bin/python3 unless listed bare). */
function fakeRoot(
  installed: string[],
  bare: string[] = [],
): { root: string; env: NodeJS.ProcessEnv; work: string } {
  const root = join(tmp, `root${roots++}`);
  mkdirSync(join(root, 'shims'), { recursive: true });
  executable(join(root, 'shims', 'python3'), shimScript(root));
  for (const v of installed) {
    mkdirSync(join(root, 'versions', v, 'bin'), { recursive: true });
    executable(join(root, 'versions', v, 'bin', 'python3'));
  }
  for (const v of bare) mkdirSync(join(root, 'versions', v, 'bin'), { recursive: true });
  const work = join(root, 'work', 'project', 'src');
  mkdirSync(work, { recursive: true });
  return { root, work, env: { PATH: `${join(root, 'nothing-here')}:${join(root, 'shims')}:/usr/bin:/bin` } };
}

describe(
  'pyenvTarget',
  { skip: process.platform === 'win32' ? 'pyenv shims are POSIX scripts' : false },
  () => {
    it('follows PYENV_VERSION, first installed version with the command wins', () => {
      const { root, env, work } = fakeRoot(['3.11.7', '3.12.1'], ['2.7.18']);
      assert.equal(
        pyenvTarget('python3', { env: { ...env, PYENV_VERSION: '3.12.1' }, cwd: work }),
        join(root, 'versions/3.12.1/bin/python3'),
      );
      // 2.7.18 is installed but has no python3: pyenv which moves on to the next version.
      assert.equal(
        pyenvTarget('python3', { env: { ...env, PYENV_VERSION: '2.7.18:3.11.7' }, cwd: work }),
        join(root, 'versions/3.11.7/bin/python3'),
      );
    });

    it('reads the nearest .python-version up from the working directory, then the global version file', () => {
      const { root, env, work } = fakeRoot(['3.11.7', '3.12.1', '3.10.13']);
      writeFileSync(join(root, 'version'), '3.10.13\n');
      assert.equal(pyenvTarget('python3', { env, cwd: work }), join(root, 'versions/3.10.13/bin/python3'));
      // Comments, blank lines, CRLF and trailing words are pyenv's format too.
      writeFileSync(
        join(root, 'work', 'project', '.python-version'),
        '# pinned for CI\r\n\r\n3.12.1 extra words\r\n3.11.7\r\n',
      );
      assert.equal(pyenvTarget('python3', { env, cwd: work }), join(root, 'versions/3.12.1/bin/python3'));
      // PYENV_DIR is where pyenv starts looking, before the working directory.
      const other = join(root, 'elsewhere');
      mkdirSync(other);
      writeFileSync(join(other, '.python-version'), '3.11.7');
      assert.equal(
        pyenvTarget('python3', { env: { ...env, PYENV_DIR: other }, cwd: work }),
        join(root, 'versions/3.11.7/bin/python3'),
      );
      // PYENV_VERSION beats every file.
      assert.equal(
        pyenvTarget('python3', { env: { ...env, PYENV_VERSION: '3.10.13' }, cwd: work }),
        join(root, 'versions/3.10.13/bin/python3'),
      );
    });

    it('steps aside for system, prefixes, missing versions, unsafe names and empty version files', () => {
      const { root, env, work } = fakeRoot(['3.11.7']);
      for (const v of ['system', '3.11', '3.9.1', '../../bin', 'python-3.11.7']) {
        assert.equal(pyenvTarget('python3', { env: { ...env, PYENV_VERSION: v }, cwd: work }), undefined, v);
      }
      assert.equal(pyenvTarget('python3', { env, cwd: work }), undefined, 'no version file at all: system');
      writeFileSync(join(root, 'version'), '\n# nothing\n');
      assert.equal(pyenvTarget('python3', { env, cwd: work }), undefined, 'empty global file');
    });

    it('leaves commands that are not pyenv shims alone', () => {
      const { root, env, work } = fakeRoot(['3.11.7']);
      const envV = { ...env, PYENV_VERSION: '3.11.7' };
      assert.equal(pyenvTarget('python3.99', { env: envV, cwd: work }), undefined, 'not on PATH');
      executable(join(root, 'shims', 'python3'), '#!/bin/sh\nexec /usr/bin/python3 "$@"\n');
      assert.equal(pyenvTarget('python3', { env: envV, cwd: work }), undefined, 'a script named like a shim');
      assert.equal(directInterpreter('python3', { env: envV, cwd: work }), 'python3');
      const direct = join(root, 'versions/3.11.7/bin/python3');
      assert.equal(
        directInterpreter(direct, { env: envV, cwd: work }),
        direct,
        'a path to an interpreter stays',
      );
    });

    it('an explicit path to a shim is resolved like the command', () => {
      const { root, env, work } = fakeRoot(['3.11.7']);
      assert.equal(
        pyenvTarget(join(root, 'shims', 'python3'), { env: { ...env, PYENV_VERSION: '3.11.7' }, cwd: work }),
        join(root, 'versions/3.11.7/bin/python3'),
      );
    });

    it('on this machine: the same interpreter as running the shim, when python3 is one', (t) => {
      const target = pyenvTarget('python3');
      if (!target) return t.skip('python3 here is not a pyenv shim we resolve');
      const viaShim = execFileSync('python3', ['-c', 'import sys; print(sys.executable)'], {
        encoding: 'utf8',
      }).trim();
      const direct = execFileSync(target, ['-c', 'import sys; print(sys.executable)'], {
        encoding: 'utf8',
      }).trim();
      assert.equal(direct, viaShim);
    });
  },
);
