// The scaffold's duplicate-modify-hook warning: which existing hooks of the agent it names.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { agentModifyHooks, takenPoints } from '../../client/scaffold/duplicates';
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

// #31 item 11: the scaffold's pick marked nothing, so a taken point was a click from an error.
describe('takenPoints', () => {
  it("the points the file's agent already has a modify hook at (this file included), with a handler", () => {
    assert.deepEqual(
      [...takenPoints(hooks, '/w/a/hooks.py')],
      [
        ['tool_call', 'guard'],
        ['model_request', 'cool'],
      ],
    );
    assert.deepEqual([...takenPoints(hooks, '/w/b/hooks/new.py')], [['tool_call', 'other_agent']]);
  });

  it('no file: only when one agent is there to mean', () => {
    assert.deepEqual([...takenPoints(hooks, undefined)], []);
    assert.deepEqual(
      [...takenPoints({ agents: [hooks.agents[1]!] }, undefined)],
      [['tool_call', 'other_agent']],
    );
  });
});
