// The hooks explorer's data: the server's answer checked entry by entry, and the tree
// (agent → point → hook for Mantle, agent → class → phase for Cayu).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { buildTree, runHookArgs, type HookNode } from '../../client/explorer/tree-model';
import { hookCount, normaliseHooks } from '../../client/hooks-data';
import type { HookEntry } from '../../runtime/lsp/shared';

const r = (line: number) => ({ start: { line, character: 10 }, end: { line, character: 20 } });
function hook(over: Partial<HookEntry>): HookEntry {
  return {
    file: '/w/agent/hooks.py',
    uri: 'file:///w/agent/hooks.py',
    range: r(3),
    engine: 'mantle',
    point: 'tool_call',
    lane: 'modify',
    timeoutMs: 500,
    wired: true,
    duplicate: false,
    handler: 'guard',
    ...over,
  };
}

describe('normaliseHooks', () => {
  it('keeps valid entries and drops malformed ones without throwing', () => {
    const raw = {
      agents: [
        {
          root: '/w/agent',
          hooks: [
            hook({}),
            { file: 1 },
            null,
            { ...hook({}), lane: 'sideways' },
            { ...hook({}), range: { start: { line: -1, character: 0 }, end: { line: 0, character: 0 } } },
          ],
        },
        { root: 42, hooks: [] },
        'junk',
      ],
    };
    const out = normaliseHooks(raw);
    assert.equal(out.agents.length, 1);
    assert.equal(out.agents[0]!.hooks.length, 1);
    assert.equal(hookCount(out), 1);
  });

  it("keeps the line's name of a point (pointName) when it is text", () => {
    const out = normaliseHooks({
      agents: [
        {
          root: '/w',
          hooks: [
            { ...hook({}), pointName: 'outgoing_message' },
            { ...hook({}), pointName: 7 },
          ],
        },
      ],
    });
    assert.deepEqual(
      out.agents[0]!.hooks.map((h) => h.pointName),
      ['outgoing_message', undefined],
    );
  });

  it('turns garbage into an empty answer', () => {
    for (const g of [undefined, null, 3, 'x', [], { agents: 'no' }])
      assert.deepEqual(normaliseHooks(g), { agents: [] });
  });

  it("carries the wiring's word: a hook's wiredBy, the unwired points (dropped when malformed)", () => {
    const agents = [{ root: '/w', hooks: [{ ...hook({}), wired: false, wiredBy: 'rasa-pro 3.21.4' }] }];
    const out = normaliseHooks({
      agents,
      unwiredPoints: { points: ['incoming_message', 7], by: 'rasa-pro 3.21.4' },
    });
    assert.equal(out.agents[0]!.hooks[0]!.wiredBy, 'rasa-pro 3.21.4');
    assert.deepEqual(out.unwiredPoints, { points: ['incoming_message'], by: 'rasa-pro 3.21.4' });
    for (const bad of [{ points: 'x', by: 'b' }, { points: [] }, 'junk'])
      assert.equal(normaliseHooks({ agents, unwiredPoints: bad }).unwiredPoints, undefined);
  });

  it('defaults optional fields: wired unless said otherwise, not duplicate, no timeout for Cayu', () => {
    const { file, range, engine, point, lane, handler } = hook({
      engine: 'cayu',
      point: 'before_tool_call',
      handler: 'Audit.before_tool_call',
    });
    const out = normaliseHooks({
      agents: [{ root: '/w', hooks: [{ file, range, engine, point, lane, handler }] }],
    });
    const h = out.agents[0]!.hooks[0]!;
    assert.equal(h.wired, true);
    assert.equal(h.duplicate, false);
    assert.equal(h.timeoutMs, undefined);
  });
});

describe('buildTree', () => {
  const result = {
    agents: [
      {
        root: '/w/agent',
        hooks: [
          hook({ point: 'outgoing_text', wired: false, handler: 'polish', range: r(30) }),
          hook({ handler: 'guard2', duplicate: true, range: r(20), file: '/w/agent/hooks/b.py' }),
          hook({ handler: 'guard', duplicate: true }),
          hook({ point: 'turn_started', lane: 'observe', timeoutMs: 100, handler: 'mark', range: r(1) }),
          hook({
            engine: 'cayu',
            point: 'after_tool_call',
            lane: 'modify',
            timeoutMs: undefined,
            handler: 'Audit.after_tool_call',
            range: r(50),
            file: '/w/agent/audit.py',
          }),
          hook({
            engine: 'cayu',
            point: 'before_tool_call',
            lane: 'modify',
            timeoutMs: undefined,
            handler: 'Audit.before_tool_call',
            range: r(40),
            file: '/w/agent/audit.py',
          }),
        ],
      },
      { root: '/w/empty', hooks: [] },
    ],
  };

  it('groups Mantle hooks by point in catalogue order, then Cayu classes with their phases', () => {
    const [agent, ...rest] = buildTree(result);
    assert.equal(rest.length, 0, 'agents without hooks are left out');
    assert.equal(agent!.label, 'agent');
    assert.equal(agent!.description, '6 hooks');
    assert.deepEqual(
      agent!.children.map((g) => `${g.kind}:${g.label}`),
      ['point:turn started', 'point:tool call', 'point:outgoing text', 'class:Audit'],
    );
    assert.deepEqual(
      agent!.children[3]!.children.map((h) => h.label),
      ['before_tool_call', 'after_tool_call'],
    );
  });

  it('labels Cayu phases by what they can do, never "modify" (Cayu has no lanes)', () => {
    const cayu = buildTree(result)[0]!.children[3]!.children;
    assert.deepEqual(
      cayu.map((h) => h.description),
      ['guard · proceed, modify, short-circuit or block', 'result · keep or replace'],
    );
    assert.ok(cayu.every((h) => !h.description.startsWith('modify')));
    assert.match(cayu[0]!.tooltip, /Cayu phase before_tool_call: guard/);
  });

  it('labels hooks "lane · timeout", flags duplicates and unwired points', () => {
    const [agent] = buildTree(result);
    const toolCall = agent!.children[1]!;
    assert.deepEqual(
      toolCall.children.map((h) => [h.label, h.description]),
      [
        ['guard', 'modify · 500 ms · duplicate'],
        ['guard2', 'modify · 500 ms · duplicate'],
      ],
    );
    assert.match(toolCall.children[0]!.tooltip, /Duplicate modify hook/);
    assert.match(toolCall.description, /duplicate/);
    const outgoing = agent!.children[2]!;
    assert.equal(outgoing.wired, false);
    assert.match(outgoing.description, /not wired/);
    assert.equal(agent!.children[0]!.children[0]!.description, 'observe · 100 ms');
  });

  it('gives "Run Hook" exactly {file, handler}', () => {
    const [agent] = buildTree(result);
    const node = agent!.children[3]!.children[0] as HookNode;
    assert.deepEqual(runHookArgs(node), { file: '/w/agent/audit.py', handler: 'Audit.before_tool_call' });
  });

  it('gives every node a unique id', () => {
    const ids = buildTree(result).flatMap((a) => [
      a.id,
      ...a.children.flatMap((g) => [g.id, ...g.children.map((h) => h.id)]),
    ]);
    assert.equal(new Set(ids).size, ids.length);
  });
});

describe('buildTree after a coverage run (#32)', () => {
  const result = {
    agents: [
      {
        root: '/w/agent',
        hooks: [
          hook({ handler: 'guard' }),
          hook({ handler: 'audit', lane: 'observe', range: r(9) }),
          hook({ handler: 'fresh', range: r(15), point: 'tool_result' }),
        ],
      },
    ],
  };
  const hookNodes = (exercised?: (h: HookEntry) => number | undefined) =>
    buildTree(result, exercised).flatMap((a) => a.children.flatMap((g) => g.children)) as HookNode[];

  it('marks a hook no case ran; a measured one and one added since the run are not marked', () => {
    const cases = new Map([
      ['guard', 3],
      ['audit', 0],
    ]);
    const nodes = hookNodes((h) => cases.get(h.handler));
    const by = (name: string) => nodes.find((n) => n.label === name)!;
    assert.match(by('audit').description, /not exercised by tests/);
    assert.match(by('audit').tooltip, /Not exercised: no test case ran it in the last Run with Coverage\./);
    assert.doesNotMatch(by('guard').description, /not exercised/);
    assert.doesNotMatch(by('fresh').description, /not exercised/);
  });

  it('before any coverage run nothing is marked', () => {
    assert.ok(hookNodes().every((n) => !/not exercised/.test(n.description)));
  });
});
