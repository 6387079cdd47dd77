// bin/hooksmith.js runs the bundle from a V8 code cache: the same output as without it, a cache
// per command written once and then accepted, a new cache when the bundle is rewritten (even to
// the same length, which is all V8 itself checks), and no harm from a corrupt cache, a read-only
// dist/ or HOOKSMITH_NO_CODE_CACHE. The CLI is bundled into a temp copy of the package layout.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bundleCli, ROOT } from './cli-check-helpers';

const pkg = mkdtempSync(join(tmpdir(), 'hooksmith-codecache-'));
const dist = join(pkg, 'dist');
const cacheDir = join(dist, '.v8-cache');
const agent = join(ROOT, 'examples', 'faulty-agent');

function run(
  args: string[],
  env: NodeJS.ProcessEnv = {},
): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [join(pkg, 'bin', 'hooksmith.js'), ...args], {
    encoding: 'utf8',
    env: { ...process.env, ...env },
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}
const caches = () => (existsSync(cacheDir) ? readdirSync(cacheDir).sort() : []);

describe('bin/hooksmith.js code cache', () => {
  let plain: ReturnType<typeof run>;
  before(() => {
    mkdirSync(join(pkg, 'bin'), { recursive: true });
    copyFileSync(join(ROOT, 'bin', 'hooksmith.js'), join(pkg, 'bin', 'hooksmith.js'));
    copyFileSync(join(ROOT, 'package.json'), join(pkg, 'package.json'));
    bundleCli(dist);
    plain = run(['check', agent, '--no-cpython', '--format', 'json'], { HOOKSMITH_NO_CODE_CACHE: '1' });
  });
  after(() => {
    chmodSync(dist, 0o755);
    rmSync(pkg, { recursive: true, force: true });
  });

  it('HOOKSMITH_NO_CODE_CACHE runs the bundle and writes nothing', () => {
    assert.equal(plain.status, 1, plain.stderr);
    assert.match(plain.stdout, /"code": ?"/);
    assert.deepEqual(caches(), []);
  });

  it('writes one cache per command on first use, then runs from it with the same output', () => {
    const first = run(['check', agent, '--no-cpython', '--format', 'json']);
    assert.deepEqual([first.status, first.stdout], [plain.status, plain.stdout]);
    const written = caches();
    assert.equal(written.length, 1);
    assert.match(written[0] as string, /^cli-check-[0-9a-f]{16}\.bin$/);
    const file = join(cacheDir, written[0] as string);
    const stamp = statSync(file).mtimeMs;
    const second = run(['check', agent, '--no-cpython', '--format', 'json']);
    assert.deepEqual([second.status, second.stdout], [plain.status, plain.stdout]);
    assert.equal(statSync(file).mtimeMs, stamp, 'an accepted cache is not rewritten');
    assert.equal(run(['--version']).stdout, 'hooksmith 0.1.0\n');
    assert.equal(caches().length, 2, 'check and other commands keep separate caches');
  });

  it('a corrupt cache is rejected by V8, the run is unaffected and the cache rewritten', () => {
    const name = caches().find((f) => f.startsWith('cli-check-')) as string;
    writeFileSync(join(cacheDir, name), Buffer.alloc(4096, 7));
    const r = run(['check', agent, '--no-cpython', '--format', 'json']);
    assert.deepEqual([r.status, r.stdout], [plain.status, plain.stdout]);
    assert.ok(readFileSync(join(cacheDir, name)).length > 10_000, 'rewritten with real code');
  });

  it('a rewritten bundle of the same length gets a new cache and the old ones go', () => {
    const cli = join(dist, 'cli.js');
    const source = readFileSync(cli, 'utf8');
    assert.ok(source.includes('hooksmith 0.1.0'));
    writeFileSync(cli, source.replace('hooksmith 0.1.0', 'hooksmith 9.9.9'));
    try {
      const before = caches();
      assert.equal(run(['--version']).stdout, 'hooksmith 9.9.9\n');
      const now = caches();
      assert.equal(now.length, 1);
      assert.ok(!before.includes(now[0] as string));
    } finally {
      writeFileSync(cli, source);
    }
  });

  it(
    'a read-only dist/ runs without a cache',
    { skip: process.getuid?.() === 0 ? 'root writes anywhere' : false },
    () => {
      rmSync(cacheDir, { recursive: true, force: true });
      chmodSync(dist, 0o555);
      try {
        const r = run(['check', agent, '--no-cpython', '--format', 'json']);
        assert.deepEqual([r.status, r.stdout], [plain.status, plain.stdout]);
        assert.deepEqual(caches(), []);
      } finally {
        chmodSync(dist, 0o755);
      }
    },
  );

  it('an unwritable cache location (a file where the directory goes) runs without a cache', () => {
    rmSync(cacheDir, { recursive: true, force: true });
    writeFileSync(cacheDir, 'not a directory');
    try {
      const r = run(['check', agent, '--no-cpython', '--format', 'json']);
      assert.deepEqual([r.status, r.stdout], [plain.status, plain.stdout]);
      assert.equal(r.stderr, plain.stderr);
    } finally {
      rmSync(cacheDir, { force: true });
    }
  });
});
