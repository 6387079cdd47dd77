// Real-engine mode on cayu 0.15 (#40 item 2): the driver plays 0.15 through its public API as it
// plays 0.3 (host cayu_real.py `_cayu`), the installed version decides, and the result says so.
// The interpreter: the tests' 'engines' environment, or HOOKSMITH_CAYU_PYTHON (a test decides by
// importing; skips with the reason).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { useCayuLine } from '../../runtime/catalogue';
import { createHookRunner } from '../../runtime/engine/runner';
import { testEnv } from '../python-envs';

const python = process.env.HOOKSMITH_CAYU_PYTHON ?? testEnv('engines').python ?? 'python3';
const probe = spawnSync(
  python,
  ['-c', 'import importlib.metadata as m, cayu.observability.hooks; print(m.version("cayu"))'],
  { encoding: 'utf8', timeout: 120_000 },
);
const version = probe.status === 0 ? probe.stdout.trim() : undefined;
const skip = version
  ? {}
  : {
      skip: `no cayu with cayu.observability.hooks in ${python} (set HOOKSMITH_CAYU_PYTHON): ${probe.stderr.trim().split('\n').pop()}`,
    };

const work = mkdtempSync(join(tmpdir(), 'hooksmith-cayu-015-'));
after(() => rmSync(work, { recursive: true, force: true }));

// Written as a 0.15 user writes it: the hook API from cayu.observability, ToolResult from cayu.
const QUOTA = `from cayu.observability import BeforeToolCallDecision, RuntimeHook


class Quota(RuntimeHook):
    def __init__(self):
        self.calls = 0

    async def before_tool_call(self, context):
        self.calls += 1
        if self.calls >= 3:
            return BeforeToolCallDecision(action="block", block_reason="third call of the conversation")
        return None
`;
const call = (tool_name: string, n: number) => ({ tool_calls: [{ tool_name, tool_args: { n } }] });
const CONVERSATION = {
  turns: [
    { user: 'one', completions: [call('echo', 1), { text: 'ok' }] },
    {
      user: 'two',
      completions: [
        {
          tool_calls: [
            { tool_name: 'echo', tool_args: { n: 2 } },
            { tool_name: 'other', tool_args: { n: 3 } },
          ],
        },
        { text: 'done' },
      ],
    },
  ],
  tools: { echo: { value: { ok: true } }, other: { value: { ok: true } } },
};

test(
  'cayu 0.15 plays a conversation for real, named by its version, and the emulation agrees',
  skip,
  async () => {
    const dir = join(work, 'quota');
    mkdirSync(dir);
    writeFileSync(join(dir, 'runtime_hooks.py'), QUOTA);
    useCayuLine('cayu-newer');
    const play = async (mode: 'real' | 'emulation') => {
      const runner = createHookRunner({ python, cayuEngine: () => mode });
      try {
        return await runner.simulate(CONVERSATION, dir);
      } finally {
        await runner.dispose();
      }
    };
    try {
      const real = await play('real');
      assert.equal(real.playedBy, `cayu ${version} runtime`);
      assert.equal(real.status, 'completed');
      const emulated = await play('emulation');
      assert.match(emulated.playedBy ?? '', /^Hooksmith's Cayu emulation/);
      assert.deepEqual(
        real.toolResults?.map((t) => [t.tool_name, t.event, t.content]),
        [
          ['echo', 'tool.call.completed', '{"ok":true}'],
          ['echo', 'tool.call.completed', '{"ok":true}'],
          ['other', 'tool.call.blocked', 'third call of the conversation'],
        ],
      );
      // The same hook object counted both turns' calls in each mode: the third never ran.
      for (const r of [real, emulated]) {
        assert.equal(r.status, 'completed', r.playedBy);
        assert.deepEqual(
          r.tools?.map((t) => t.tool_name),
          ['echo', 'echo'],
          r.playedBy,
        );
      }
    } finally {
      useCayuLine(undefined);
    }
  },
);
