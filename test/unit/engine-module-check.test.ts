// Run Hook and Simulate Turn check hook modules in process (analyseAgent): the same rules as
// `hooksmith check`, with the agent's siblings, but no python3 started and no verdict cache
// written (an error only CPython sees then fails at import, in the host). A python3 on PATH
// that records being started proves it.
import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { ModuleChecker } from '../../runtime/engine/module-check';
import { loadAgentHooks } from '../../runtime/engine/agent-hooks';

const HOOK = (name: string) =>
  `from rasa.mantle.hooks import ToolCallPayload, modify_tool_call\n\n\n@modify_tool_call()\nasync def ${name}(payload: ToolCallPayload) -> ToolCallPayload:\n    return payload\n`;

let dir: string;
const saved = { ...process.env };
before(() => {
  dir = mkdtempSync(join(tmpdir(), 'hooksmith-inproc-'));
  mkdirSync(join(dir, 'bin'));
  writeFileSync(join(dir, 'bin', 'python3'), `#!/bin/sh\ntouch ${join(dir, 'python3-started')}\nexit 1\n`, {
    mode: 0o755,
  });
  process.env.PATH = `${join(dir, 'bin')}${delimiter}${process.env.PATH}`;
  process.env.HOOKSMITH_CACHE_DIR = join(dir, 'cache');
  delete process.env.HOOKSMITH_NO_CACHE;
  mkdirSync(join(dir, 'agent', 'hooks'), { recursive: true });
  writeFileSync(join(dir, 'agent', 'hooks', 'a.py'), HOOK('first'));
  writeFileSync(join(dir, 'agent', 'hooks', 'b.py'), HOOK('second'));
});
after(() => {
  process.env = saved;
  rmSync(dir, { recursive: true, force: true });
});

it('Run Hook: the module checked with its siblings, no python3, no cache', async () => {
  const checked = await new ModuleChecker().check(join(dir, 'agent', 'hooks', 'a.py'));
  assert.deepEqual(
    checked.errors.map((d) => [d.code, d.file]),
    [['duplicate-modify-hook', join(dir, 'agent', 'hooks', 'a.py')]],
    'cross-file rules see the sibling; only this file is reported',
  );
  assert.equal(existsSync(join(dir, 'python3-started')), false, 'no python3 was started');
  assert.equal(existsSync(join(dir, 'cache')), false, 'no verdict cache was written');
});

it('Simulate Turn: the whole agent checked in process, no python3, no cache', async () => {
  const hooks = await loadAgentHooks(join(dir, 'agent'));
  assert.deepEqual(hooks.errors.map((d) => d.code).sort(), [
    'duplicate-modify-hook',
    'duplicate-modify-hook',
  ]);
  assert.equal(existsSync(join(dir, 'python3-started')), false);
  assert.equal(existsSync(join(dir, 'cache')), false);
});
