// CPython's verdicts remembered across runs (runtime/cpython/verdict-cache.ts): stored and found by
// text, per interpreter binary; a corrupt, foreign or forged file is ignored; the newest MAX_ENTRIES are
// kept. Through analyseFiles with the real python3: the second run asks python3 nothing and
// reports the same findings (a CPython-only syntax error included), an edited file is asked for
// again, and --no-cache / HOOKSMITH_NO_CACHE leave the cache alone.
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  chmodSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { analyseFiles, type FilesOptions } from '../../../runtime/analysis/files';
import { parseCheckArgs } from '../../../runtime/cli/check';
import {
  defaultCacheDir,
  interpreterIdentity,
  MAX_ENTRIES,
  VerdictCache,
} from '../../../runtime/cpython/verdict-cache';
import type { SyntaxIssue } from '../../../runtime/python/model';

const tmp = mkdtempSync(join(tmpdir(), 'hooksmith-vcache-'));
after(() => rmSync(tmp, { recursive: true, force: true }));
let dirs = 0;
const freshDir = () => join(tmp, `cache${dirs++}`);

const issue: SyntaxIssue = {
  message: 'non-default argument follows default argument',
  range: { start: { line: 0, character: 13 }, end: { line: 0, character: 14 } },
  source: 'cpython',
};

describe('VerdictCache', () => {
  it('stores verdicts by text key and finds them in the next run; "no verdict" is not stored', () => {
    const dir = freshDir();
    const a = VerdictCache.open('python-a', dir) as VerdictCache;
    assert.equal(a.get(a.keyOf('x = 1\n')), undefined);
    a.set(a.keyOf('x = 1\n'), null);
    a.set(a.keyOf('def f(a=1, b): pass\n'), issue);
    a.set(a.keyOf('crashed\n'), undefined);
    a.save();
    const b = VerdictCache.open('python-a', dir) as VerdictCache;
    assert.equal(b.get(b.keyOf('x = 1\n')), null);
    assert.deepEqual(b.get(b.keyOf('def f(a=1, b): pass\n')), issue);
    assert.equal(b.get(b.keyOf('crashed\n')), undefined);
    assert.equal(b.get(b.keyOf('x = 1')), undefined, 'another text');
    assert.deepEqual(b.stats, { hits: 2, misses: 2 });
    // Another interpreter has its own verdicts, under other keys.
    const other = VerdictCache.open('python-b', dir) as VerdictCache;
    assert.notEqual(other.keyOf('x = 1\n'), b.keyOf('x = 1\n'));
    assert.equal(other.get(other.keyOf('x = 1\n')), undefined);
  });

  it('two checks that opened the cache at once both keep their verdicts (a locked merge, no lock left)', () => {
    const dir = freshDir();
    const a = VerdictCache.open('python-a', dir) as VerdictCache;
    const b = VerdictCache.open('python-a', dir) as VerdictCache;
    a.set(a.keyOf('a = 1\n'), null);
    b.set(b.keyOf('b = 1\n'), issue);
    a.save();
    b.save();
    const c = VerdictCache.open('python-a', dir) as VerdictCache;
    assert.equal(c.get(c.keyOf('a = 1\n')), null);
    assert.deepEqual(c.get(c.keyOf('b = 1\n')), issue);
    assert.deepEqual(
      readdirSync(dir).filter((f) => /\.(lock|tmp)$/.test(f)),
      [],
    );
  });

  it('a corrupt, foreign, forged or hand-edited file is ignored, not trusted', () => {
    const dir = freshDir();
    const c = VerdictCache.open('python-a', dir) as VerdictCache;
    const bad = 'def f(a=1, b): pass\n';
    c.set(c.keyOf('y = 2\n'), null);
    c.set(c.keyOf(bad), issue);
    c.save();
    const path = join(dir, readdirSync(dir).find((f) => f.startsWith('cpython-verdicts-')) as string);
    const saved = JSON.parse(readFileSync(path, 'utf8'));
    const reopen = () => VerdictCache.open('python-a', dir) as VerdictCache;
    const write = (body: unknown) =>
      writeFileSync(path, typeof body === 'string' ? body : JSON.stringify(body));
    for (const body of ['{not json', '[]', { ...saved, identity: 'python-z' }, { ...saved, format: 1 }]) {
      write(body);
      assert.equal(reopen().get(c.keyOf('y = 2\n')), undefined, JSON.stringify(body));
    }
    // A file larger than any cache could be is not even parsed.
    write({ ...saved, pad: 'x'.repeat(17 << 20) });
    assert.equal(reopen().get(c.keyOf('y = 2\n')), undefined, 'oversized');
    // A forged verdict under a real key: a null hiding the syntax error, or a message with
    // terminal escapes. The signature does not match: python3 is asked again.
    const [okKey, badKey] = [c.keyOf('y = 2\n'), c.keyOf(bad)];
    const forged = structuredClone(saved);
    forged.verdicts[badKey][0] = null;
    forged.verdicts[okKey][0] = { ...issue, message: '\u001b[2J\u001b]0;pwned\u0007' };
    write(forged);
    const d = reopen();
    assert.equal(d.get(badKey), undefined, 'a forged null');
    assert.equal(d.get(okKey), undefined, 'a forged message');
    // Entries of the wrong shape are dropped one by one; the genuine ones stay.
    const shaped = structuredClone(saved);
    shaped.verdicts.other = [{ message: 1 }, 'x'];
    shaped.verdicts[okKey] = [...saved.verdicts[okKey]];
    write(shaped);
    const e = reopen();
    assert.equal(e.get(okKey), null);
    assert.deepEqual(e.get(badKey), issue);
    assert.equal(e.get('other'), undefined);
  });

  it(
    'a key others could read or replace is not used: nothing is remembered',
    { skip: process.platform === 'win32' },
    () => {
      const dir = freshDir();
      const c = VerdictCache.open('python-a', dir) as VerdictCache;
      assert.ok(c);
      chmodSync(join(dir, 'key'), 0o644);
      assert.equal(VerdictCache.open('python-a', dir), undefined);
      writeFileSync(join(dir, 'key'), 'not a key', { mode: 0o600 });
      chmodSync(join(dir, 'key'), 0o600);
      assert.equal(VerdictCache.open('python-a', dir), undefined);
    },
  );

  it(`keeps the ${MAX_ENTRIES} most recently used verdicts`, () => {
    const dir = freshDir();
    const c = VerdictCache.open('python-a', dir) as VerdictCache;
    for (let i = 0; i < MAX_ENTRIES + 10; i++) c.set(`k${i}`, null);
    assert.equal(c.get('k0'), null); // used again: now the newest
    c.save();
    const d = VerdictCache.open('python-a', dir) as VerdictCache;
    assert.equal(d.get('k0'), null);
    assert.equal(d.get('k1'), undefined, 'the oldest went');
    assert.equal(d.get(`k${MAX_ENTRIES + 9}`), null);
  });

  it('an unwritable directory only means nothing is remembered', () => {
    const blocker = join(tmp, 'a-file');
    writeFileSync(blocker, 'x');
    assert.equal(VerdictCache.open('python-a', join(blocker, 'cache')), undefined);
  });

  it('the interpreter identity follows the binary: a new mtime is a new interpreter', () => {
    const bin = join(tmp, 'bin');
    mkdirSync(bin, { recursive: true });
    const py = join(bin, 'python3');
    copyFileSync(process.execPath, py);
    const before = interpreterIdentity(py, 'script');
    assert.ok(before);
    assert.notEqual(interpreterIdentity(py, 'another script'), before);
    utimesSync(py, new Date(2020, 1, 1), new Date(2020, 1, 1));
    assert.notEqual(interpreterIdentity(py, 'script'), before);
    assert.equal(interpreterIdentity(join(bin, 'missing'), 'script'), undefined);
    assert.equal(interpreterIdentity('no-such-python-here', 'script'), undefined);
  });

  it(
    'lives under $HOOKSMITH_CACHE_DIR, else $XDG_CACHE_HOME/hooksmith, else ~/.cache/hooksmith',
    { skip: process.platform === 'win32' },
    () => {
      assert.equal(defaultCacheDir({ HOOKSMITH_CACHE_DIR: '/c', XDG_CACHE_HOME: '/x', HOME: '/h' }), '/c');
      assert.equal(defaultCacheDir({ XDG_CACHE_HOME: '/x', HOME: '/h' }), '/x/hooksmith');
      assert.equal(defaultCacheDir({ XDG_CACHE_HOME: 'relative', HOME: '/h' }), '/h/.cache/hooksmith');
      assert.equal(defaultCacheDir({ HOME: '/h' }), '/h/.cache/hooksmith');
    },
  );
});

describe('check with remembered verdicts (real python3)', () => {
  const agent = join(tmp, 'agent');
  const hooks = join(agent, 'hooks');
  mkdirSync(hooks, { recursive: true });
  const ok =
    'from rasa.mantle.hooks import on_turn_started\n\n@on_turn_started()\nasync def started(payload):\n    return None\n';
  // tree-sitter accepts this; only CPython rejects it.
  const bad = 'from rasa.mantle.hooks import on_turn_started\n\ndef helper(a=1, b):\n    return a\n';
  for (let i = 0; i < 5; i++)
    writeFileSync(join(hooks, `ok_${i}.py`), ok.replace('started(', `started_${i}(`));
  writeFileSync(join(hooks, 'bad.py'), bad);

  async function check(
    opts: FilesOptions,
  ): Promise<{ findings: string; asked: number; remembered: number; logs: string[] }> {
    const logs: string[] = [];
    const r = await analyseFiles([agent], {
      verbose: true,
      options: { logger: (m) => logs.push(m) },
      ...opts,
    });
    const line = logs.map((l) => /CPython verdicts: (\d+) remembered, (\d+) asked for/.exec(l)).find(Boolean);
    const findings = JSON.stringify([...r.diagnostics].sort());
    return { findings, remembered: line ? Number(line[1]) : -1, asked: line ? Number(line[2]) : -1, logs };
  }

  it('asks once, then remembers; the same findings, the CPython-only error included', async (t) => {
    const dir = freshDir();
    const first = await check({ cache: true, cacheDir: dir });
    if (first.logs.some((l) => /tree-sitter only/.test(l))) return t.skip('no python3 here');
    assert.deepEqual([first.remembered, first.asked], [0, 6]);
    assert.match(
      first.findings,
      /non-default argument follows default argument|parameter without a default follows parameter with a default/,
    );
    const second = await check({ cache: true, cacheDir: dir });
    assert.deepEqual([second.remembered, second.asked], [6, 0]);
    assert.equal(second.findings, first.findings);
    // An edited file is judged again; the others are still remembered.
    writeFileSync(join(hooks, 'bad.py'), bad.replace('a=1, b', 'a, b=1'));
    try {
      const third = await check({ cache: true, cacheDir: dir });
      assert.deepEqual([third.remembered, third.asked], [5, 1]);
      assert.doesNotMatch(third.findings, /follows/);
    } finally {
      writeFileSync(join(hooks, 'bad.py'), bad);
    }
  });

  it('off with cache: false, and by default under HOOKSMITH_NO_CACHE (as in this test run)', async () => {
    const dir = freshDir();
    const off = await check({ cache: false, cacheDir: dir });
    assert.equal(off.asked, -1, 'no cache line');
    assert.equal(existsSync(dir), false);
    const saved = process.env.HOOKSMITH_NO_CACHE;
    process.env.HOOKSMITH_NO_CACHE = '1';
    try {
      await check({ cacheDir: dir });
      assert.equal(existsSync(dir), false);
    } finally {
      if (saved === undefined) delete process.env.HOOKSMITH_NO_CACHE;
      else process.env.HOOKSMITH_NO_CACHE = saved;
    }
  });

  it('hooksmith check --no-cache', () => {
    assert.equal((parseCheckArgs(['a']) as { cache: boolean }).cache, true);
    assert.equal((parseCheckArgs(['--no-cache', 'a']) as { cache: boolean }).cache, false);
  });
});
