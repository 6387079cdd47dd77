// The tree worker (runtime/analysis/tree-worker.ts) parses beside the main thread: the answer is
// exactly the single-threaded one whatever it parses — syntax errors, stand-in trees for absurd
// indentation, CRLF and lone CR, non-ASCII, binary files, Cayu modules, cross-file findings —
// and a worker that fails to load, or claims texts and never answers, changes nothing but time.
// From source (tsx in the worker) through analyseFiles, and the bundled CLI's automatic mode.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { hookModuleSource } from '../../bench/generate';
import {
  analyseFiles,
  TREE_WORKER_MIN_FILES,
  treeWorkerPays,
  type FilesOptions,
} from '../../runtime/analysis/files';
import { parseModule } from '../../runtime/analysis/default-backend';
import { TreeHelper } from '../../runtime/analysis/tree-helper';
import { initParser } from '../../runtime/python/parser';
import { ROOT, bundleCli } from './cli-check-helpers';

/** Both examples, many generated modules and awkward files: `count` hook modules or more. */
function makeTree(root: string, count: number): void {
  cpSync(join(ROOT, 'examples/faulty-agent'), join(root, 'faulty'), { recursive: true });
  cpSync(join(ROOT, 'examples/clean-agent'), join(root, 'clean'), { recursive: true });
  const hooks = join(root, 'generated', 'hooks');
  mkdirSync(hooks, { recursive: true });
  const awkward = [
    'from rasa.mantle.hooks import on_turn_started\n\n@on_turn_started(\nasync def x(payload):\n',
    'def f(a=1, b):\n    pass\n',
    `def deep():\n${Array.from({ length: 120 }, (_, i) => `${'  '.repeat(i + 1)}if x:`).join('\n')}\n${'  '.repeat(121)}pass\n`,
    'from rasa.mantle.hooks import on_turn_started\r\n\r\n@on_turn_started()\r\nasync def crlf(payload):\r\n    return "café 🎉"\r\n',
    'from rasa.mantle.hooks import on_turn_started\r@on_turn_started()\rdef lone_cr(payload):\r    pass\r',
    '',
  ];
  // Awkward files at both ends: the main thread parses from the front, the worker from the back.
  for (let i = 0; i < count; i++) {
    const odd = i < awkward.length ? awkward[i] : awkward[count - 1 - i];
    const text = odd ?? hookModuleSource(40 + (i % 7) * 20).replace(/audit_result_0/g, `audit_result_${i}`);
    writeFileSync(join(hooks, `m${String(i).padStart(4, '0')}.py`), text);
  }
  writeFileSync(join(hooks, 'binary.py'), Buffer.from([0, 159, 146, 150, 0, 1, 2]));
}

describe('check with a tree worker', () => {
  let dir: string;
  let tree: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'hooksmith-trees-'));
    tree = join(dir, 'tree');
    mkdirSync(tree);
    makeTree(tree, TREE_WORKER_MIN_FILES + 10);
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('analyseFiles from source: the same maps with and without the worker, which did parse some files', async () => {
    for (const cpython of [false, true]) {
      const logs: string[] = [];
      const opts: FilesOptions = { cpython, verbose: true, options: { logger: (m) => logs.push(m) } };
      const one = await analyseFiles([tree], { ...opts, workers: 0 });
      assert.ok(!logs.some((l) => /tree worker/.test(l)), 'workers: 0 means one thread');
      const two = await analyseFiles([tree], { ...opts, treeWorker: true });
      assert.deepEqual([...two.diagnostics], [...one.diagnostics], `cpython ${cpython}`);
      assert.equal(two.fileCount, one.fileCount);
      const parsed = logs.map((l) => /the tree worker parsed (\d+) of (\d+) files/.exec(l)).find(Boolean);
      assert.ok(parsed, logs.join('\n'));
      assert.ok(Number(parsed[2]) > TREE_WORKER_MIN_FILES);
      assert.ok(!logs.some((l) => /tree worker (failed|gave no tree)/.test(l)), logs.join('\n'));
    }
  });

  it("the worker's trees give the models the main thread builds, for every file of the tree", async () => {
    await initParser();
    const files = readdirSync(join(tree, 'generated', 'hooks')).map((f) =>
      join(tree, 'generated', 'hooks', f),
    );
    files.push(
      ...['faulty', 'clean'].flatMap((a) =>
        readdirSync(join(tree, a, 'hooks'))
          .filter((f) => f.endsWith('.py'))
          .map((f) => join(tree, a, 'hooks', f)),
      ),
    );
    const texts = files.map((f) => readFileSync(f, 'utf8'));
    const helper = new TreeHelper(join(ROOT, 'runtime', 'analysis', 'tree-worker.ts'), (m) => assert.fail(m));
    try {
      helper.start(texts);
      assert.ok(await helper.settled(60_000), 'the worker parsed everything');
      texts.forEach((text, i) => {
        const fromWorker = helper.modelFor(i, text, files[i] as string);
        assert.ok(fromWorker, files[i]);
        assert.deepEqual(fromWorker, parseModule(text, files[i] as string), files[i]);
      });
      assert.equal(helper.fromWorker, texts.length);
    } finally {
      helper.close();
    }
  });

  it('a worker that fails to load leaves the answer alone', async () => {
    const opts: FilesOptions = { cpython: false };
    const one = await analyseFiles([tree], { ...opts, workers: 0 });
    const boom = join(dir, 'boom.js');
    writeFileSync(boom, 'throw new Error("no worker today");\n');
    const r = await analyseFiles([tree], {
      ...opts,
      treeWorker: true,
      treeWorkerScript: boom,
      options: { logger: () => undefined },
    });
    assert.deepEqual([...r.diagnostics], [...one.diagnostics]);
  });

  it('a worker that claims every text and never answers costs one wait, then the main thread parses', async () => {
    const marker = join(dir, 'claimed');
    const silent = join(dir, 'silent.js');
    writeFileSync(
      silent,
      `const { parentPort } = require('node:worker_threads');
       parentPort.on('message', (m) => {
         if (m.type !== 'jobs') return;
         new Int32Array(m.claims).fill(2);
         require('node:fs').writeFileSync(${JSON.stringify(marker)}, 'x');
       });\n`,
    );
    const logs: string[] = [];
    const helper = new TreeHelper(silent, (m) => logs.push(m));
    try {
      helper.start(['x = 1\n', 'y = 2\n', 'z = 3\n']);
      for (let i = 0; i < 400 && !existsSync(marker); i++) await new Promise((r) => setTimeout(r, 25));
      assert.ok(existsSync(marker), 'the worker claimed the texts');
      const t0 = Date.now();
      for (let i = 0; i < 3; i++) assert.equal(helper.modelFor(i, 'x = 1\n', `m${i}.py`), undefined);
      assert.ok(Date.now() - t0 < 2000, 'one wait, not one per text');
      assert.equal(
        logs.filter((l) => /gave no tree within \d+ ms: the main thread parses the rest/.test(l)).length,
        1,
        logs.join('\n'),
      );
      assert.equal(helper.fromWorker, 0);
    } finally {
      helper.close();
    }
  });

  it('by default only where a core is left for it', () => {
    assert.equal(treeWorkerPays(TREE_WORKER_MIN_FILES - 1, false, 8), false);
    assert.equal(treeWorkerPays(TREE_WORKER_MIN_FILES, false, 2), true);
    assert.equal(treeWorkerPays(1000, false, 1), false);
    // python3 takes the second core of two
    assert.equal(treeWorkerPays(1000, true, 2), false);
    assert.equal(treeWorkerPays(1000, true, 3), true);
  });

  it('the bundled CLI: automatic mode without CPython uses it on 2+ cores, and prints what one thread prints', (t) => {
    const dist = join(dir, 'dist');
    mkdirSync(dist);
    bundleCli(dist, { worker: true });
    const run = (args: string[]) =>
      spawnSync(
        process.execPath,
        [join(dist, 'cli.js'), 'check', '.', '--format', 'json', '--no-cpython', ...args],
        { cwd: tree, encoding: 'utf8', maxBuffer: 64 << 20 },
      );
    const one = run(['--jobs', '0']);
    const auto = run(['--verbose']);
    assert.equal(one.status, 1, one.stderr);
    assert.equal(auto.stdout, one.stdout);
    if (!/tree worker parses beside/.test(auto.stderr)) return t.skip(`one core here: ${auto.stderr}`);
    assert.match(auto.stderr, /the tree worker parsed \d+ of \d+ files/);
  });
});
