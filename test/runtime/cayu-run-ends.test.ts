// What a simulation shows where the Cayu runtime saved no result or the run raised (#44 item 7),
// in every mode there is here: the emulation (no cayu importable), and real-engine mode on cayu
// 0.3.0 (the tests' 'cayu-0.3' environment on python3's PYTHONPATH) and on cayu 0.15 (the
// 'engines' environment, or HOOKSMITH_CAYU_PYTHON). Each real mode skips, naming why, where its
// interpreter does not import it. The facts are the runtime's (test/fixtures/cayu-corpus, the
// cases after-executed-error-to-success, before-cancelled-error, before-base-exception).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { useCayuLine } from '../../runtime/catalogue';
import type { SimulationResult } from '../../runtime/engine/api';
import { createHookRunner } from '../../runtime/engine/runner';
import { sitePackagesWith, testEnv } from '../python-envs';

const work = mkdtempSync(join(tmpdir(), 'hooksmith-cayu-run-ends-'));
after(() => rmSync(work, { recursive: true, force: true }));

interface Mode {
  name: string;
  playedBy: RegExp;
  env: Record<string, string>;
  python?: string;
  line?: 'cayu-newer';
  skip?: string;
}

const cayu03 = sitePackagesWith('cayu-0.3', ['cayu'], { dist: 'cayu', is: '0.3.0' });
const python015 = process.env.HOOKSMITH_CAYU_PYTHON ?? testEnv('engines').python;
const has015 =
  python015 !== undefined &&
  spawnSync(python015, ['-c', 'import cayu.observability.hooks'], { timeout: 120_000 }).status === 0;

const MODES: Mode[] = [
  { name: 'emulation', playedBy: /emulation/, env: { PYTHONPATH: '', HOOKSMITH_CAYU_ENGINE: 'auto' } },
  {
    name: 'real-engine mode, cayu 0.3.0',
    playedBy: /^cayu 0\.3\.0 runtime$/,
    env: { PYTHONPATH: cayu03.path ?? '', HOOKSMITH_CAYU_ENGINE: 'real' },
    ...(cayu03.skip ? { skip: `no cayu 0.3.0 to import: ${cayu03.skip}` } : {}),
  },
  {
    name: 'real-engine mode, cayu 0.15',
    playedBy: /^cayu 0\.15\.\d+ runtime$/,
    env: { PYTHONPATH: '', HOOKSMITH_CAYU_ENGINE: 'real' },
    ...(python015 ? { python: python015 } : {}),
    line: 'cayu-newer',
    ...(has015 ? {} : { skip: `no cayu 0.15 to import (${python015 ?? testEnv('engines').reason})` }),
  },
];

const IMPORTS = `import asyncio
try:  # cayu 0.9 and newer (0.15)
    from cayu.observability import AfterToolCallDecision, RuntimeHook
except ImportError:  # cayu 0.3
    from cayu import AfterToolCallDecision, RuntimeHook
from cayu import ToolResult
`;

const HOOKS = {
  // An after-hook's modify turning an error result into a success: the session fails, nothing saved.
  flip: `${IMPORTS}
class Fix(RuntimeHook):
    async def after_tool_call(self, context):
        return AfterToolCallDecision(action="modify", modified_result=ToolResult(content="fixed by the hook"))
`,
  cancelled: `${IMPORTS}
class Guard(RuntimeHook):
    async def before_tool_call(self, context):
        raise asyncio.CancelledError()
`,
  interrupt: `${IMPORTS}
class Guard(RuntimeHook):
    async def before_tool_call(self, context):
        raise KeyboardInterrupt()
`,
};

function scenario(tool: Record<string, unknown>) {
  return {
    user: 'go',
    tools: { echo: tool },
    completions: [{ tool_calls: [{ tool_name: 'echo', tool_args: { text: 'a' } }] }, { text: 'done' }],
  };
}

async function simulate(mode: Mode, hooks: keyof typeof HOOKS, tool: Record<string, unknown>) {
  const dir = join(work, `${hooks}-${MODES.indexOf(mode)}`);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'runtime_hooks.py'), HOOKS[hooks]);
  const saved = { ...process.env };
  Object.assign(process.env, mode.env);
  if (mode.line) useCayuLine(mode.line);
  const runner = createHookRunner(mode.python ? { python: mode.python } : {});
  try {
    const r = await runner.simulate(scenario(tool), dir);
    assert.match(r.playedBy ?? '', mode.playedBy);
    return r;
  } finally {
    await runner.dispose();
    useCayuLine(undefined);
    process.env = saved;
  }
}

const lines = (r: SimulationResult, role: string) =>
  r.transcript.filter((t) => t.role === role).map((t) => t.text);

for (const mode of MODES) {
  const opts = mode.skip ? { skip: mode.skip } : {};

  test(
    `${mode.name}: an after-hook's modify that failed the session shows no result for the call`,
    opts,
    async () => {
      const r = await simulate(mode, 'flip', { error: 'tool failed' });
      assert.equal(r.status, 'error');
      assert.deepEqual(
        lines(r, 'tool').filter((t) => t.includes('fixed by the hook')),
        [],
        'no result shown: the runtime saved none',
      );
      assert.ok(
        lines(r, 'engine').some((t) => /no result (of this batch is )?saved/.test(t)),
        lines(r, 'engine').join('\n'),
      );
      for (const saved of r.savedResults ?? []) assert.notEqual(saved.content, 'fixed by the hook');
    },
  );

  test(
    `${mode.name}: a CancelledError from a before-hook shows the interrupted result the runtime saved`,
    opts,
    async () => {
      const r = await simulate(mode, 'cancelled', { value: { ok: true } });
      assert.equal(r.endedBy, 'CancelledError');
      assert.equal(r.sessionLeft, 'interrupted');
      assert.ok(
        lines(r, 'tool').some((t) => t.includes('error: Tool call interrupted before completion.')),
        r.transcript.map((t) => `${t.role}: ${t.text}`).join('\n'),
      );
      assert.ok(lines(r, 'engine').some((t) => /marked the session interrupted/.test(t)));
    },
  );

  test(
    `${mode.name}: a BaseException from a hook: the run raised, the session did not end, and is not called failed`,
    opts,
    async () => {
      const r = await simulate(mode, 'interrupt', { value: { ok: true } });
      assert.equal(r.endedBy, 'KeyboardInterrupt');
      assert.equal(r.sessionLeft, 'running');
      assert.match(
        r.ending ?? '',
        /the run raised KeyboardInterrupt; the session did not end \(left running\)/,
      );
      const said = lines(r, 'engine').join('\n');
      assert.match(said, /KeyboardInterrupt raised by \S*Guard\S* is not an Exception/);
      assert.match(said, /the run raised it; the session did not end/);
      assert.doesNotMatch(`${said}\n${r.ending}`, /session (has )?failed|failed session/);
      assert.deepEqual(lines(r, 'tool'), [], 'no result: the call never ran and nothing was saved');
    },
  );
}
