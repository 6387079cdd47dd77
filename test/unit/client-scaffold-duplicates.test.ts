// The scaffold's duplicate-modify-hook warning: which existing hooks of the agent it names.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { agentModifyHooks } from '../../client/scaffold/duplicates';
import { findDecorator } from '../../runtime/catalogue';
import type { HookEntry } from '../../runtime/lsp/shared';

const range = { start: { line: 4, character: 10 }, end: { line: 4, character: 15 } };
function hook(
  file: string,
  point: string,
  lane: 'observe' | 'modify',
  handler: string,
  engine: 'mantle' | 'cayu' = 'mantle',
): HookEntry {
  return {
    file,
    uri: `file://${file}`,
    range,
    engine,
    point,
    lane,
    wired: true,
    duplicate: false,
    handler,
    timeoutMs: 500,
  };
}

const hooks = {
  agents: [
    {
      root: '/w/a',
      hooks: [
        hook('/w/a/hooks.py', 'tool_call', 'modify', 'guard'),
        hook('/w/a/hooks/x.py', 'tool_call', 'observe', 'audit'),
        hook('/w/a/hooks/x.py', 'model_request', 'modify', 'cool'),
      ],
    },
    { root: '/w/b', hooks: [hook('/w/b/hooks.py', 'tool_call', 'modify', 'other_agent')] },
  ],
};

describe('agentModifyHooks', () => {
  const modifyToolCall = findDecorator('modify_tool_call')!;

  it("names the other files' modify hook at the same point, in the same agent only", () => {
    assert.deepEqual(
      agentModifyHooks(hooks, '/w/a/hooks/x.py', modifyToolCall).map((h) => h.handler),
      ['guard'],
    );
  });

  it('finds the agent of a new file by the loader rule (hooks/**/*.py under the root)', () => {
    assert.deepEqual(
      agentModifyHooks(hooks, '/w/a/hooks/new_one.py', modifyToolCall).map((h) => h.handler),
      ['guard'],
    );
    assert.deepEqual(
      agentModifyHooks(hooks, '/w/b/hooks/deep/new.py', modifyToolCall).map((h) => h.handler),
      ['other_agent'],
    );
  });

  it('says nothing for observe hooks, other points, the same file, or unknown agents', () => {
    assert.deepEqual(agentModifyHooks(hooks, '/w/a/hooks/x.py', findDecorator('on_tool_call')!), []);
    assert.deepEqual(agentModifyHooks(hooks, '/w/a/hooks/x.py', findDecorator('modify_tool_result')!), []);
    assert.deepEqual(agentModifyHooks(hooks, '/w/a/hooks.py', modifyToolCall), []);
    assert.deepEqual(agentModifyHooks(hooks, '/elsewhere/hooks.py', modifyToolCall), []);
    assert.deepEqual(agentModifyHooks(undefined, '/w/a/hooks.py', modifyToolCall), []);
  });
});
