// `hooksmith test -j N` (#42 item 1): the built CLI with a real python3. The same tree run with
// -j 1 and -j 2 prints the same text, JSON and JUnit (timings aside: they differ between two runs
// of -j 1 as well), --update writes the same snapshots, and a host killed by one case or a hook
// timing out in another leaves the cases the other host plays alone. Coverage with jobs merges
// the same per-case data (with an interpreter that imports coverage.py; skipped otherwise).
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { pythonWith } from '../python-envs';

const root = join(__dirname, '..', '..');
const cli = join(root, 'dist', 'cli.js');

interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
}

function hooksmith(cwd: string, args: string[]): Promise<Ran> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [cli, 'test', ...args], { cwd, env: process.env });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** Timings are the one thing two runs may print differently. */
const untimed = (s: string) =>
  s
    .replace(/\d+(\.\d+)? ms\b/g, 'N ms') // a case's time, a hook's time against its budget
    .replace(/\(\d+\.\d+ s\)/g, '(N s)')
    .replace(/"durationMs":\s*[\d.]+/g, '"durationMs": N')
    .replace(/"(hookMs|scriptedMs|latencyMs|elapsedMs)":\s*[\d.]+/g, '"$1": N')
    .replace(/time="[\d.]+"/g, 'time="N"');

// A host that dies in the middle of a case, and a payload case recording a snapshot.
const CRASH_HOOKS = `import os

from rasa.mantle.hooks import ToolResultPayload, modify_tool_result, on_tool_result


@on_tool_result()
async def die(result: ToolResultPayload) -> None:
    os._exit(3)


@modify_tool_result()
async def redact(result: ToolResultPayload) -> ToolResultPayload:
    return result.model_copy(update={"value": result.value.replace("ada@example.com", "[email]")})
`;
const RESULT = {
  tool_name: 'lookup',
  arguments: {},
  value: '{"email":"ada@example.com"}',
  is_error: false,
  sender_id: 'u',
  call: null,
  channel: { name: 'rest', metadata: {} },
};
const payloadCase = (hook: string, expect: object) =>
  JSON.stringify({ hook: `hooks.py::${hook}`, expect, ...RESULT }, null, 2) + '\n';

function makeTree(dir: string): void {
  for (const i of [1, 2]) {
    cpSync(join(root, 'examples/clean-agent'), join(dir, `clean-${i}`), { recursive: true });
    cpSync(join(root, 'examples/buggy-agent'), join(dir, `buggy-${i}`), { recursive: true });
  }
  const payloads = join(dir, 'crashing', '.hooksmith', 'payloads');
  mkdirSync(payloads, { recursive: true });
  writeFileSync(join(dir, 'crashing', 'hooks.py'), CRASH_HOOKS);
  writeFileSync(join(payloads, 'a-dies.json'), payloadCase('die', { outcome: 'returned' }));
  writeFileSync(join(payloads, 'b-snap.json'), payloadCase('redact', { fields: 'snapshot' }));
  writeFileSync(join(payloads, 'c-after.json'), payloadCase('redact', { outcome: 'returned' }));
}

function filesUnder(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else out[relative(dir, p)] = readFileSync(p, 'utf8');
    }
  };
  walk(dir);
  return out;
}

let base: string;
let tree: string;
before(() => {
  base = mkdtempSync(join(tmpdir(), 'hooksmith-jobs-'));
  tree = join(base, 'tree');
  makeTree(tree);
});
after(() => rmSync(base, { recursive: true, force: true }));

describe('hooksmith test -j 2 prints what -j 1 prints', () => {
  for (const format of ['text', 'json', 'junit'])
    test(`--format ${format}`, async () => {
      const args = ['.', '--python', 'python3', '--format', format];
      const one = await hooksmith(tree, [...args, '-j', '1']);
      const two = await hooksmith(tree, [...args, '--jobs', '2']);
      assert.equal(one.code, 1, one.stderr); // buggy-agent's cases and the crashed host's case fail
      assert.equal(two.code, one.code, two.stderr);
      assert.equal(untimed(two.stdout), untimed(one.stdout));
      assert.equal(two.stderr, one.stderr);
      if (format === 'json') {
        const report = JSON.parse(one.stdout) as {
          cases: { file: string; name: string; status: string }[];
        };
        const status = (file: string) => report.cases.find((c) => c.file.endsWith(file))?.status;
        // The host died in a-dies; the cases after it (a new host) and the other agents' ran.
        assert.equal(status('a-dies.json'), 'failed');
        assert.equal(status('c-after.json'), 'passed');
        assert.equal(report.cases.filter((c) => c.file.startsWith('clean-')).length > 0, true);
      }
    });

  test('--update writes the same snapshots', async () => {
    const a = join(base, 'update-1');
    const b = join(base, 'update-2');
    makeTree(a);
    makeTree(b);
    const one = await hooksmith(a, ['.', '--python', 'python3', '--update', '-j', '1']);
    const two = await hooksmith(b, ['.', '--python', 'python3', '--update', '-j', '2']);
    assert.match(one.stderr, /updated snapshots in crashing\/\.hooksmith\/payloads\/b-snap\.json/);
    assert.equal(two.stderr, one.stderr);
    assert.equal(untimed(two.stdout), untimed(one.stdout));
    assert.deepEqual(filesUnder(b), filesUnder(a));
    assert.match(readFileSync(join(a, 'crashing/.hooksmith/payloads/b-snap.json'), 'utf8'), /\[email\]/);
  });

  test('-j must be a whole number from 1 to 256', async () => {
    for (const bad of ['0', 'two', '1.5', '300']) {
      const r = await hooksmith(tree, ['.', '-j', bad]);
      assert.equal(r.code, 2);
      assert.match(r.stderr, /--jobs must be a whole number from 1 to 256/);
    }
  });
});

// An interpreter with coverage.py (the tests' 'tools' environment, else python3: by importing).
const coverageFound = process.env.HOOKSMITH_COVERAGE_PYTHON
  ? { python: process.env.HOOKSMITH_COVERAGE_PYTHON }
  : pythonWith(['coverage'], { envs: ['tools'] });
const coveragePython = coverageFound.python;
describe('hooksmith test --coverage -j 2', () => {
  test(
    'the coverage report is the one -j 1 gives',
    { skip: coveragePython ? false : `no interpreter here imports coverage.py: ${coverageFound.skip}` },
    async () => {
      const agents = ['clean-1', 'clean-2', 'crashing'];
      const args = [...agents, '--python', coveragePython!, '--coverage', '--format', 'json'];
      const one = await hooksmith(tree, [...args, '-j', '1']);
      const two = await hooksmith(tree, [...args, '-j', '2']);
      assert.equal(two.code, one.code, two.stderr);
      assert.match(one.stdout, /"coverage"/);
      assert.equal(untimed(two.stdout), untimed(one.stdout));
    },
  );
});
