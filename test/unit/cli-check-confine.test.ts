// The bundled CLI on a tree large enough for the automatic mode, with real python3: on an idle
// Linux machine with 2+ cores it confines python3 and V8's background threads to all cores but
// one (--verbose says so), and prints exactly what a check pinned to one thread prints.
import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { analyseFiles, PARALLEL_MIN_FILES } from '../../runtime/analysis/files';
import { hookModuleSource } from '../../bench/generate';
import { ROOT, hooksmith } from './cli-check-helpers';

let dir: string;
before(() => {
  dir = mkdtempSync(join(tmpdir(), 'hooksmith-confine-'));
  cpSync(join(ROOT, 'examples/faulty-agent'), join(dir, 'faulty'), { recursive: true });
  const hooks = join(dir, 'generated', 'hooks');
  mkdirSync(hooks, { recursive: true });
  for (let i = 0; i < PARALLEL_MIN_FILES + 10; i++)
    writeFileSync(
      join(hooks, `m${i}.py`),
      hookModuleSource(40).replace('Generated benchmark hook module.', `Module ${i}.`),
    );
  writeFileSync(join(hooks, 'broken.py'), 'def f(a=1, b):\n    pass\n');
});
after(() => rmSync(dir, { recursive: true, force: true }));

it('automatic mode: the same output as --jobs 0; helpers confined when the machine was idle', () => {
  const one = hooksmith(['check', '.', '--format', 'json', '--jobs', '0', '--no-cache'], dir);
  const auto = hooksmith(['check', '.', '--format', 'json', '--verbose', '--no-cache'], dir);
  assert.equal(one.code, 1, one.stderr);
  assert.equal(auto.stdout, one.stdout);
  // tree-sitter accepts `def f(a=1, b)`: only CPython's verdict makes it a syntax error.
  const diagnostics = JSON.parse(auto.stdout) as { file: string; code: string }[];
  assert.ok(
    diagnostics.some((d) => d.file.endsWith('broken.py') && d.code === 'syntax-error'),
    'CPython judged the files',
  );
  const machine =
    /checking \d+ file\(s\) on one thread \((\d+) cores, ([\d.]+) busy with other programs\)/.exec(
      auto.stderr,
    );
  const confined = /python3 and \d+ background thread\(s\) share all cores but one/.test(auto.stderr);
  if (process.platform !== 'linux') assert.ok(!confined, auto.stderr);
  else if (machine && Number(machine[1]) >= 2 && Number(machine[2]) < 0.5) assert.ok(confined, auto.stderr);
  assert.ok(!/share all cores/.test(one.stderr), '--jobs 0 measures nothing and confines nothing');
});

it('analyseFiles in a long-lived process (no oneShot) never confines, even when the CLI would', async () => {
  const logs: string[] = [];
  const result = await analyseFiles([dir], {
    verbose: true,
    cache: false,
    options: { logger: (m) => logs.push(m) },
  });
  assert.ok(result.fileCount > PARALLEL_MIN_FILES);
  assert.ok(
    logs.some((l) => /checking \d+ file/.test(l)),
    logs.join('\n'),
  );
  assert.ok(!logs.some((l) => /share all cores but one/.test(l)), logs.join('\n'));
});
