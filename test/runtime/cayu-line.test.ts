// Cayu API lines: with a fake installed cayu of the newer layout (0.10: cayu.observability.hooks,
// cayu.tools.base, cayu.events) every command follows it — check accepts the newer imports and
// flags the 0.3 ones as import errors naming the new module, run and simulate run the hook,
// payload gives the phase's context — and --cayu-line overrides the installed layout; without
// cayu installed, the host's shim serves the selected line's modules only. Built CLI, real python3.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { makeFakeNewerCayu } from './fixtures/fake-cayu';

const root = join(__dirname, '..', '..');
const cli = join(root, 'dist', 'cli.js');
let dir: string;

const NEWER = `from cayu.observability import BeforeToolCallDecision, BeforeToolCallHookContext, RuntimeHook
from cayu.tools.base import ToolResult


class Guard(RuntimeHook):
    async def before_tool_call(self, context: BeforeToolCallHookContext) -> BeforeToolCallDecision | None:
        if context.tool_name == "delete_account":
            return BeforeToolCallDecision(action="block", block_reason="no deletes")
        return BeforeToolCallDecision(action="short_circuit", synthetic_result=ToolResult(content="cached"))
`;
const OLD = NEWER.replace('from cayu.observability import', 'from cayu.runtime.hooks import').replace(
  'from cayu.tools.base import ToolResult',
  'from cayu.core.tools import ToolResult',
);

before(() => {
  if (!existsSync(cli))
    spawnSync(process.execPath, [join(root, 'scripts/build.mjs')], { cwd: root, stdio: 'inherit' });
  dir = mkdtempSync(join(tmpdir(), 'hooksmith-cayu-line-'));
  makeFakeNewerCayu(join(dir, 'site'));
  for (const [name, text] of [
    ['agent', NEWER],
    ['old', OLD],
  ] as const) {
    mkdirSync(join(dir, name));
    writeFileSync(join(dir, name, 'guards.py'), text);
  }
  writeFileSync(
    join(dir, 'call.json'),
    JSON.stringify({ tool_name: 'delete_account', arguments: { id: 7 } }),
  );
  writeFileSync(
    join(dir, 'agent', 'delete.scenario.json'),
    JSON.stringify({
      user: 'delete me',
      completions: [
        { tool_calls: [{ tool_name: 'delete_account', tool_args: { id: 7 } }] },
        { text: 'done' },
      ],
      tools: { delete_account: { value: { deleted: true } } },
    }),
  );
});
after(() => rmSync(dir, { recursive: true, force: true }));

function hooksmith(site: string | undefined, ...args: string[]) {
  const r = spawnSync(process.execPath, [cli, ...args], {
    cwd: dir,
    encoding: 'utf8',
    env: {
      ...process.env,
      PYTHONPATH: site ?? '',
      HOOKSMITH_NO_CACHE: '',
      HOOKSMITH_CACHE_DIR: join(dir, 'cache'),
    },
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}
const installed = (...args: string[]) => hooksmith(join(dir, 'site'), ...args);
const shimmed = (...args: string[]) => hooksmith(undefined, ...args);

interface Finding {
  file: string;
  code: string;
  message: string;
  severity: string;
}

test('the installed newer layout: check, run, simulate and payload follow it', () => {
  const check = installed('check', 'agent', '--format', 'json');
  assert.equal(check.code, 0, check.stdout + check.stderr);
  assert.deepEqual(JSON.parse(check.stdout), []);
  const run = installed(
    'run',
    'agent/guards.py::Guard.before_tool_call',
    '--payload',
    'call.json',
    '--format',
    'json',
  );
  assert.equal(run.code, 0, run.stderr);
  const r = JSON.parse(run.stdout);
  assert.equal(r.outcome, 'returned');
  assert.equal(r.payload.action, 'block');
  const sim = installed('simulate', 'agent/delete.scenario.json', '--format', 'json');
  assert.equal(sim.code, 0, sim.stderr);
  const out = JSON.parse(sim.stdout);
  assert.deepEqual(out.tools ?? [], [], 'the guard blocked the tool: it never ran');
  assert.match(JSON.stringify(out.transcript), /no deletes/);
  const payload = installed('payload', 'before_tool_call');
  assert.equal(payload.code, 0, payload.stderr);
  assert.equal(typeof (JSON.parse(payload.stdout) as { tool_name: unknown }).tool_name, 'string');
});

test('the 0.3 import paths on the installed newer layout: import-error naming the new module; run refuses the module', () => {
  const check = installed('check', 'old', '--format', 'json');
  assert.equal(check.code, 1);
  const found = JSON.parse(check.stdout) as Finding[];
  assert.ok(
    found.some(
      (d) =>
        d.code === 'import-error' &&
        /`RuntimeHook` is not in `cayu.runtime.hooks` on cayu 0.9 and newer.*import it from `cayu.observability`/.test(
          d.message,
        ),
    ),
    check.stdout,
  );
  assert.ok(found.some((d) => /`ToolResult` is not in `cayu.core.tools`.*`cayu.tools.base`/.test(d.message)));
  const run = installed('run', 'old/guards.py::Guard.before_tool_call', '--payload', 'call.json');
  assert.equal(run.code, 2, 'the module does not import on this cayu');
  assert.match(run.stderr, /No module named 'cayu\.runtime\.hooks'/);
});

test('--cayu-line cayu-0.3 overrides the installed layout: the newer paths are then the import errors', () => {
  const check = installed('check', 'agent', '--format', 'json', '--cayu-line', 'cayu-0.3');
  assert.equal(check.code, 1);
  const found = JSON.parse(check.stdout) as Finding[];
  assert.ok(
    found.some((d) =>
      /`RuntimeHook` is not in `cayu.observability` on cayu 0.3.*`cayu.runtime.hooks`/.test(d.message),
    ),
    check.stdout,
  );
  // The 0.3 paths are the line's; the interpreter still says the installed cayu has no such module.
  const old = JSON.parse(
    installed('check', 'old', '--format', 'json', '--cayu-line=cayu-0.3').stdout,
  ) as Finding[];
  assert.ok(!old.some((d) => / is not in `/.test(d.message)), JSON.stringify(old));
  assert.ok(
    old.some((d) =>
      /`cayu.runtime.hooks` cannot be imported by the selected Python interpreter/.test(d.message),
    ),
  );
  const bad = installed('check', 'agent', '--cayu-line', 'cayu-9');
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /unknown --cayu-line 'cayu-9': expected one of cayu-0.3, cayu-newer/);
});

test("without cayu installed, the shim serves the selected line's modules only", () => {
  const newer = shimmed(
    'run',
    'agent/guards.py::Guard.before_tool_call',
    '--payload',
    'call.json',
    '--cayu-line',
    'cayu-newer',
    '--format',
    'json',
  );
  assert.equal(newer.code, 0, newer.stderr);
  assert.equal(JSON.parse(newer.stdout).payload.action, 'block');
  const old = shimmed(
    'run',
    'old/guards.py::Guard.before_tool_call',
    '--payload',
    'call.json',
    '--cayu-line',
    'cayu-newer',
  );
  assert.equal(old.code, 2, 'cayu.runtime.hooks is no module of the newer layout');
  // 0.15 has no cayu.runtime.hooks, and the shim of the newer line serves nothing of cayu.runtime either.
  assert.match(old.stderr, /cayu\.runtime(\.hooks)? is not provided by Hooksmith's shim/);
  const onOld = shimmed(
    'run',
    'agent/guards.py::Guard.before_tool_call',
    '--payload',
    'call.json',
    '--cayu-line',
    'cayu-0.3',
  );
  assert.equal(onOld.code, 2, 'cayu 0.3 has no hook API in cayu.observability');
  // No line chosen and no cayu: every public path of both layouts is served, as before.
  for (const name of ['agent', 'old']) {
    const any = shimmed('run', `${name}/guards.py::Guard.before_tool_call`, '--payload', 'call.json');
    assert.equal(any.code, 0, `${name}: ${any.stderr}`);
  }
});
