// Real python3 behind a stand-in launcher that counts its starts: the installed environment
// (environment_probe.py) as `check` asks for it, the engine first and the imports later.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PythonEnvironment } from '../../../runtime/cpython/environment';

const real = spawnSync('python3', ['-c', 'import sys; print(sys.executable)'], {
  encoding: 'utf8',
}).stdout.trim();

/** A launcher that notes each start in `starts`, prints `before` on stdout, then runs python3. */
function launcher(dir: string, before = ''): { python: string; starts: () => number } {
  const python = join(dir, 'python3');
  const log = join(dir, 'starts');
  writeFileSync(log, '');
  const say = before ? `echo '${before}'\n` : '';
  writeFileSync(python, `#!/bin/sh\necho start >> '${log}'\n${say}exec '${real}' "$@"\n`, { mode: 0o755 });
  return { python, starts: () => readFileSync(log, 'utf8').split('\n').filter(Boolean).length };
}

test('held: the engine and the imports are answered by one python3, which has exited after release', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'hs-env-'));
  try {
    const { python, starts } = launcher(dir);
    const env = new PythonEnvironment({ python });
    env.hold();
    const engine = await env.engine();
    assert.ok(engine, 'the engine facts are read');
    assert.equal(engine.mantle, null, 'rasa-pro is not installed in the test interpreter');
    await env.resolve(['json', 'os.path', 'no_such_module_hs', 'json.no_such_submodule']);
    assert.deepEqual(
      ['json', 'os.path', 'no_such_module_hs', 'json.no_such_submodule'].map((n) => env.known(n)),
      [true, true, false, false],
    );
    await env.release();
    assert.equal(starts(), 1);
    // Not held (the language server): each question is its own short run.
    await env.resolve(['html']);
    assert.equal(env.known('html'), true);
    assert.equal(starts(), 2);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('what the interpreter prints before its answers is not taken for one', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'hs-env-'));
  try {
    const { python } = launcher(dir, '{"noise": 1}');
    const env = new PythonEnvironment({ python });
    env.hold();
    await env.resolve(['json', 'no_such_module_hs']);
    assert.deepEqual([env.known('json'), env.known('no_such_module_hs')], [true, false]);
    await env.release();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('an interpreter that never answers: no facts after the timeout, and later questions are not stuck', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'hs-env-'));
  try {
    const python = join(dir, 'python3');
    writeFileSync(python, '#!/bin/sh\nexec sleep 30\n', { mode: 0o755 });
    const logged: string[] = [];
    const env = new PythonEnvironment({ python, timeoutMs: 300, log: (m) => logged.push(m) });
    env.hold();
    const t0 = Date.now();
    assert.equal(await env.engine(), undefined);
    await env.resolve(['json']);
    assert.equal(env.known('json'), undefined);
    await env.release();
    assert.ok(Date.now() - t0 < 5000);
    assert.match(logged.join('\n'), /could not read the environment: .*python3 did not answer within 0\.3 s/);
    assert.match(
      env.unresponsive ?? '',
      /python3 did not answer within 0\.3 s while reading the installed environment/,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('an interpreter given up on is not started again by another environment in the process (run asks twice)', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'hs-env-'));
  try {
    const python = join(dir, 'python3');
    const starts = join(dir, 'starts');
    writeFileSync(python, `#!/bin/sh\necho started >> '${starts}'\nexec sleep 30\n`, { mode: 0o755 });
    const first = new PythonEnvironment({ python, timeoutMs: 300 });
    assert.equal(await first.engine(), undefined);
    assert.ok(first.unresponsive);
    const second = new PythonEnvironment({ python, timeoutMs: 300 });
    assert.equal(second.unresponsive, first.unresponsive);
    assert.equal(await second.engine(), undefined);
    assert.equal(readFileSync(starts, 'utf8'), 'started\n');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('an interpreter that lingers once everything is answered is killed: release does not wait for it', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'hs-env-'));
  try {
    // As if an imported package had started a thread that keeps the interpreter alive.
    const python = join(dir, 'python3');
    writeFileSync(python, `#!/bin/sh\n'${real}' "$@"\nexec sleep 30 </dev/null >/dev/null 2>&1\n`, {
      mode: 0o755,
    });
    const env = new PythonEnvironment({ python });
    env.hold();
    assert.ok(await env.engine());
    const t0 = Date.now();
    await env.release();
    assert.ok(Date.now() - t0 < 10_000, `released after ${Date.now() - t0} ms`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
