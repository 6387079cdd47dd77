// Issue #34, files (the built CLI with a real python3): `test --update` keeps a file's bytes, BOM
// and line endings or refuses; `scenario from-messages -o` never replaces a file that is not a
// scenario and reads regular files only; `fuzz --save` stays inside its agent; a scenario or
// recording that is not UTF-8 is exit 2 naming the file.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';

const root = join(__dirname, '..', '..');
const cli = join(root, 'dist', 'cli.js');
let dir: string;

const HOOKS = `from rasa.mantle.hooks import KnowledgeQueryPayload, modify_knowledge_query


@modify_knowledge_query()
async def crash(query: KnowledgeQueryPayload) -> KnowledgeQueryPayload:
    raise ValueError("boom")
`;

const SNAPSHOT_SCENARIO = [
  'name: greets Ada',
  '# written by Ren\u00e9e',
  'user: hi',
  'completions:',
  '  - text: Hello Ada',
  'expect:',
  '  transcript: snapshot',
  '',
];
const RECORDING = JSON.stringify([
  { role: 'user', content: 'hi' },
  { role: 'assistant', content: 'Hello' },
]);

function write(rel: string, data: string | Buffer): string {
  const f = join(dir, rel);
  mkdirSync(join(f, '..'), { recursive: true });
  writeFileSync(f, data);
  return f;
}

function hooksmith(args: string[], input?: string) {
  const r = spawnSync(process.execPath, [cli, ...args], {
    cwd: dir,
    encoding: 'utf8',
    timeout: 60_000,
    input,
  });
  return { ...r, out: r.stdout + r.stderr };
}

before(() => {
  dir = mkdtempSync(join(tmpdir(), 'hooksmith-r4-'));
});
after(() => rmSync(dir, { recursive: true, force: true }));

test('test --update on a scenario with latin-1 bytes in a comment refuses, naming the file; the bytes stay', () => {
  const bytes = Buffer.from(SNAPSHOT_SCENARIO.join('\n'), 'latin1'); // é as the single byte 0xE9
  const file = write('latin/greet.scenario.yaml', bytes);
  const r = hooksmith(['test', 'latin', '--update']);
  assert.equal(r.status, 2, r.out);
  assert.match(r.out, /latin\/greet\.scenario\.yaml[^]*not UTF-8 \(byte \d+\)/);
  assert.deepEqual(readFileSync(file), bytes, 'the file is byte for byte what the user wrote');
  assert.deepEqual(
    readdirSync(join(dir, 'latin')),
    ['greet.scenario.yaml'],
    'no lock or temporary file left',
  );
});

test('test --update keeps a BOM and CRLF endings; an LF file stays LF; mixed endings are left as they are', () => {
  const crlf = write('eol/crlf.scenario.yaml', '\ufeff' + SNAPSHOT_SCENARIO.join('\r\n'));
  const lf = write('eol/lf.scenario.yaml', SNAPSHOT_SCENARIO.join('\n').replace('greets Ada', 'lf'));
  const mixed = write(
    'eol/mixed.scenario.yaml',
    SNAPSHOT_SCENARIO.join('\n').replace('greets Ada', 'mixed').replace('user: hi\n', 'user: hi\r\n'),
  );
  const r = hooksmith(['test', 'eol', '--update']);
  assert.equal(r.status, 0, r.out);
  const text = readFileSync(crlf, 'utf8');
  assert.ok(text.startsWith('\ufeffname: greets Ada\r\n'), JSON.stringify(text.slice(0, 30)));
  assert.equal(text.replace(/\r\n/g, '').includes('\n'), false, `a bare LF: ${JSON.stringify(text)}`);
  assert.match(text, /transcript:\r\n {4}snapshot: Hello Ada\r\n$/);
  assert.match(text, /# written by Ren\u00e9e\r\n/);
  const lfText = readFileSync(lf, 'utf8');
  assert.equal(lfText.includes('\r'), false);
  assert.match(lfText, /snapshot: Hello Ada\n$/);
  const mixedText = readFileSync(mixed, 'utf8');
  // Mixed endings: the YAML rewrite gives LF (the file's majority), and the file still loads.
  assert.match(mixedText, /user: hi\r?\n/);
  assert.match(mixedText, /snapshot: Hello Ada\n$/);
  assert.match(hooksmith(['test', 'eol']).stdout, /3 passed, 0 failed/);
});

test('from-messages -o never replaces the agent hook module or a payload case, even with --force', () => {
  const hooks = write('fm/hooks.py', HOOKS);
  const rec = write('fm/rec.json', RECORDING);
  const payload = write('fm/.hooksmith/payloads/p.json', '{"hook": "hooks.py::crash"}\n');
  for (const [out, force] of [
    [hooks, false],
    [hooks, true],
    [payload, true],
    [write('fm/notes.yaml', 'a: 1\n'), true],
  ] as const) {
    const before = readFileSync(out);
    const r = hooksmith(['scenario', 'from-messages', rec, '-o', out, ...(force ? ['--force'] : [])]);
    assert.equal(r.status, 2, r.out);
    assert.match(r.stderr, /exists and is not a scenario file .*never overwritten/);
    assert.deepEqual(readFileSync(out), before);
  }
});

test('from-messages -o records a scenario again, refuses a scenario-named file that does not load unless --force, and never writes through a link', () => {
  const rec = write('fm2/rec.json', RECORDING);
  const out = join(dir, 'fm2/conv.scenario.yaml');
  assert.equal(hooksmith(['scenario', 'from-messages', rec, '-o', out]).status, 0, 'a new file');
  const again = hooksmith(['scenario', 'from-messages', rec, '-o', out]);
  assert.equal(again.status, 0, again.out);
  const broken = write('fm2/broken.scenario.yaml', 'my notes, not a scenario\n');
  const r = hooksmith(['scenario', 'from-messages', rec, '-o', broken]);
  assert.equal(r.status, 2, r.out);
  assert.match(r.stderr, /does not load as a scenario: not overwritten \(--force replaces it\)/);
  assert.equal(readFileSync(broken, 'utf8'), 'my notes, not a scenario\n');
  const forced = hooksmith(['scenario', 'from-messages', rec, '-o', broken, '--force']);
  assert.equal(forced.status, 0, forced.out);
  assert.match(readFileSync(broken, 'utf8'), /Recorded from/);
  const hooks = write('fm2/hooks.py', HOOKS);
  const link = join(dir, 'fm2/link.scenario.yaml');
  symlinkSync(hooks, link);
  const l = hooksmith(['scenario', 'from-messages', rec, '-o', link, '--force']);
  assert.equal(l.status, 2, l.out);
  assert.match(l.stderr, /not a regular file/);
  assert.equal(readFileSync(hooks, 'utf8'), HOOKS);
});

test('from-messages refuses a FIFO and /dev/zero at once (exit 2) and still reads stdin', () => {
  const fifo = join(dir, 'rec.fifo');
  assert.equal(spawnSync('mkfifo', [fifo]).status, 0);
  for (const f of [fifo, '/dev/zero']) {
    const t = Date.now();
    const r = hooksmith(['scenario', 'from-messages', f]);
    assert.equal(r.status, 2, r.out);
    assert.match(r.stderr, /not a regular file/);
    assert.ok(Date.now() - t < 30_000);
  }
  const ok = hooksmith(['scenario', 'from-messages', '-'], RECORDING);
  assert.equal(ok.status, 0, ok.out);
  assert.match(ok.stdout, /user: hi/);
});

test('a conversation or recording that is not UTF-8 is exit 2 naming the file; UTF-8 with a BOM plays', () => {
  write('enc/hooks.py', HOOKS);
  const conv =
    'name: conv\n# Ren\u00e9e\nturns:\n  - user: hi\n    completions:\n      - text: Hello\n' +
    '  - user: again\n    completions:\n      - text: Bye\n';
  write('enc/latin.scenario.yaml', Buffer.from(conv, 'latin1'));
  const sim = hooksmith(['simulate', 'enc/latin.scenario.yaml']);
  assert.equal(sim.status, 2, sim.out);
  assert.match(sim.stderr, /enc\/latin\.scenario\.yaml: not UTF-8 \(byte 16\)/);
  const t = hooksmith(['test', 'enc/latin.scenario.yaml']);
  assert.equal(t.status, 2, t.out);
  assert.match(t.out, /enc\/latin\.scenario\.yaml[^]*not UTF-8/);
  const rec = write('enc/rec.json', Buffer.from('[{"role":"user","content":"Ren\u00e9e"}]', 'latin1'));
  const fm = hooksmith(['scenario', 'from-messages', rec]);
  assert.equal(fm.status, 2, fm.out);
  assert.match(fm.stderr, /rec\.json: not UTF-8/);
  write('enc/bom.scenario.yaml', '\ufeff' + conv);
  const bom = hooksmith(['simulate', 'enc/bom.scenario.yaml']);
  assert.equal(bom.status, 0, bom.out);
});

test('fuzz --save through a .hooksmith/payloads link leading out of the agent is refused; a file in its place is a clean exit 2', () => {
  const outside = mkdtempSync(join(tmpdir(), 'hooksmith-r4-outside-'));
  try {
    write('fzl/hooks.py', HOOKS);
    mkdirSync(join(dir, 'fzl/.hooksmith'));
    symlinkSync(outside, join(dir, 'fzl/.hooksmith/payloads'));
    const r = hooksmith(['fuzz', 'fzl/hooks.py::crash', '--runs', '3', '--seed', '1', '--save', 'x']);
    assert.equal(r.status, 2, r.out);
    assert.match(
      r.stderr,
      /--save: \.hooksmith\/payloads in the agent .* leads outside the agent .*not saved/,
    );
    assert.deepEqual(readdirSync(outside), []);

    write('fzf/hooks.py', HOOKS);
    write('fzf/.hooksmith/payloads', 'a file\n');
    const f = hooksmith(['fuzz', 'fzf/hooks.py::crash', '--runs', '3', '--seed', '1', '--save', 'x']);
    assert.equal(f.status, 2, f.out);
    assert.match(
      f.stderr,
      /--save: \.hooksmith\/payloads in the agent .* is not a folder: the case was not saved/,
    );
    assert.doesNotMatch(f.out, /internal error|EEXIST|\n\s+at /);

    // A link that stays inside the agent is a folder of the agent's: the case is saved there.
    write('fzi/hooks.py', HOOKS);
    mkdirSync(join(dir, 'fzi/cases'));
    mkdirSync(join(dir, 'fzi/.hooksmith'));
    symlinkSync(join(dir, 'fzi/cases'), join(dir, 'fzi/.hooksmith/payloads'));
    const i = hooksmith(['fuzz', 'fzi/hooks.py::crash', '--runs', '3', '--seed', '1', '--save', 'x']);
    assert.equal(i.status, 1, i.out);
    assert.deepEqual(readdirSync(join(dir, 'fzi/cases')), ['x.json']);
    assert.equal(existsSync(join(outside, 'x.json')), false);
  } finally {
    rmSync(outside, { recursive: true, force: true });
  }
});
