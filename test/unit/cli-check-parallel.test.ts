// `hooksmith check` with check workers gives exactly the single-threaded answer: the CLI bundled
// as scripts/build.mjs does (cli.js + check-worker.js + WASMs in one folder), run on the examples
// and on a generated tree large enough for the automatic mode; and without the worker file it
// falls back to one thread. analyseFiles from source (tsx) is compared in both modes too.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { analyseFiles, type FilesOptions } from '../../runtime/analysis/files';
import { defaultWorkerCount, FILES_PER_WORKER, PARALLEL_MIN_FILES } from '../../runtime/analysis/files';

import { ROOT, bundleCli } from './cli-check-helpers';

/** Copies of both example agents (cross-file duplicates, syntax errors, Cayu files) plus bad files. */
function makeTree(root: string): number {
  let files = 0;
  for (let i = 0; i < 8; i++) {
    cpSync(join(ROOT, 'examples/faulty-agent'), join(root, `faulty-${i}`), { recursive: true });
    files += 8;
  }
  for (let i = 0; i < 4; i++) {
    cpSync(join(ROOT, 'examples/clean-agent'), join(root, `clean-${i}`), { recursive: true });
    files += 9;
  }
  writeFileSync(join(root, 'faulty-3/hooks/binary.py'), Buffer.from([0, 159, 146, 150, 0, 1, 2]));
  writeFileSync(
    join(root, 'clean-2/hooks/half_typed.py'),
    'from rasa.mantle.hooks import on_turn_started\n\n@on_turn_started(\nasync def x(payload):\n',
  );
  return files + 2;
}

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

function run(cli: string, args: string[], cwd: string): Run {
  const r = spawnSync(process.execPath, [cli, 'check', ...args], {
    cwd,
    encoding: 'utf8',
    timeout: 60_000,
    maxBuffer: 64 << 20,
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe('hooksmith check in parallel', () => {
  let dir: string;
  let tree: string;
  let cli: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'hooksmith-par-'));
    mkdirSync(join(dir, 'dist'));
    bundleCli(join(dir, 'dist'), { worker: true });
    cli = join(dir, 'dist', 'cli.js');
    tree = join(dir, 'tree');
    mkdirSync(tree);
    assert.ok(makeTree(tree) < PARALLEL_MIN_FILES, 'small enough for one thread by default');
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('examples/: the same output on 1, 2 and 3 threads (json), and on 1 and 2 (sarif)', () => {
    for (const [format, threads] of [
      ['json', ['1', '2']],
      ['sarif', ['1']],
    ] as const) {
      const one = run(cli, ['examples', '--format', format, '--jobs', '0'], ROOT);
      assert.equal(one.code, 1, one.stderr);
      assert.ok(one.stdout.length > 1000);
      for (const jobs of threads) {
        const many = run(cli, ['examples', '--format', format, '--jobs', jobs, '--verbose'], ROOT);
        assert.equal(many.code, one.code);
        assert.equal(many.stdout, one.stdout, `${format} with --jobs ${jobs}`);
        assert.match(many.stderr, new RegExp(`on ${Number(jobs) + 1} threads`));
        assert.doesNotMatch(many.stderr, /failed/);
      }
    }
  });

  it('a generated tree: 3 threads and the automatic mode (one thread at this size) match one thread exactly', () => {
    const one = run(cli, ['.', '--format', 'json', '--jobs', '0'], tree);
    const three = run(cli, ['.', '--format', 'json', '--jobs', '2', '--verbose'], tree);
    const auto = run(cli, ['.', '--format', 'json', '--verbose'], tree);
    assert.equal(one.code, 1, one.stderr);
    assert.equal(three.code, 1);
    assert.equal(three.stdout, one.stdout);
    assert.match(three.stderr, /checking \d+ files on 3 threads/);
    assert.equal(auto.code, 1);
    assert.equal(auto.stdout, one.stdout);
    // Below PARALLEL_MIN_FILES no worker is started; --verbose says so.
    assert.match(auto.stderr, /checking \d+ file\(s\) on one thread \(\d+ cores\)/);
    // python3 read the files itself (all but the binary one, which is never sent).
    assert.match(auto.stderr, /CPython 3\.\d+\.\d+ read \d+ file\(s\) itself\n/);
    const findings = JSON.parse(one.stdout) as { file: string; code: string }[];
    // Cross-file (duplicate-modify-hook), CPython-confirmed and binary-file findings in every copy.
    for (let i = 0; i < 8; i++)
      assert.ok(
        findings.some((f) => f.file.startsWith(`faulty-${i}/`) && f.code === 'duplicate-modify-hook'),
        `faulty-${i}`,
      );
    assert.ok(findings.some((f) => f.file === 'faulty-3/hooks/binary.py' && f.code === 'syntax-error'));
    assert.ok(findings.some((f) => f.file === 'clean-2/hooks/half_typed.py' && f.code === 'syntax-error'));
    // Without --verbose nothing is said about threads.
    assert.equal(run(cli, ['.', '--format', 'json'], tree).stderr, '');
  });

  it('without check-worker.js beside the CLI: one thread, same answer, said only with --verbose', () => {
    const alone = join(dir, 'alone');
    mkdirSync(alone);
    for (const f of ['cli.js', 'tree-sitter.wasm', 'tree-sitter-python.wasm'])
      copyFileSync(join(dir, 'dist', f), join(alone, f));
    const one = run(join(dir, 'dist', 'cli.js'), ['.', '--format', 'json', '--jobs', '0'], tree);
    const quiet = run(join(alone, 'cli.js'), ['.', '--format', 'json', '--jobs', '1'], tree);
    const loud = run(join(alone, 'cli.js'), ['.', '--format', 'json', '--jobs', '1', '--verbose'], tree);
    assert.equal(quiet.stdout, one.stdout);
    assert.equal(quiet.stderr, '');
    assert.equal(loud.stdout, one.stdout);
    assert.match(loud.stderr, /check-worker script not found.*one thread/);
  });

  it('the automatic worker count: one per FILES_PER_WORKER files, within the cores beyond the main thread and python3 (at most 3)', () => {
    assert.equal(PARALLEL_MIN_FILES, FILES_PER_WORKER);
    assert.equal(defaultWorkerCount(0, 8), 0);
    assert.equal(defaultWorkerCount(FILES_PER_WORKER - 1, 8), 0);
    assert.equal(defaultWorkerCount(FILES_PER_WORKER, 8), 1);
    assert.equal(defaultWorkerCount(1000, 2), 0);
    assert.equal(defaultWorkerCount(1000, 1), 0);
    assert.equal(defaultWorkerCount(2 * FILES_PER_WORKER, 8), 2);
    assert.equal(defaultWorkerCount(100_000, 8), 3);
  });

  it('a check that fails with workers running still exits (workers stopped)', () => {
    const nowasm = join(dir, 'nowasm');
    mkdirSync(nowasm);
    for (const f of ['cli.js', 'check-worker.js']) copyFileSync(join(dir, 'dist', f), join(nowasm, f));
    const t0 = Date.now();
    const r = run(join(nowasm, 'cli.js'), ['examples', '--jobs', '1'], ROOT);
    assert.equal(r.code, 2, r.stderr);
    assert.match(r.stderr, /internal error: .*tree-sitter\.wasm/);
    assert.ok(Date.now() - t0 < 30_000);
  });

  it('--jobs takes a small number', () => {
    const r = run(cli, ['examples', '--jobs', 'many'], ROOT);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /--jobs needs a number/);
  });

  it('analyseFiles from source: a worker (tsx) and a failing worker give the single-threaded maps', async () => {
    const logs: string[] = [];
    const opts: FilesOptions = { options: { logger: (m) => logs.push(m) } };
    const one = await analyseFiles([tree], { ...opts, workers: 0 });
    const par = await analyseFiles([tree], { ...opts, workers: 1 });
    assert.deepEqual([...par.diagnostics], [...one.diagnostics]);
    assert.equal(par.fileCount, one.fileCount);
    assert.deepEqual(logs, []);
    const boom = join(dir, 'boom.js');
    writeFileSync(boom, 'throw new Error("no worker today");\n');
    const failed = await analyseFiles([tree], { ...opts, workers: 2, workerScript: boom });
    assert.deepEqual([...failed.diagnostics], [...one.diagnostics]);
    assert.equal(
      logs.filter((l) => /check worker failed.*no worker today/.test(l)).length,
      2,
      logs.join('\n'),
    );
  });
});
