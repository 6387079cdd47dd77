// One CodeLens row per hook (#23 item 9): Run, Debug, Fuzz, then the facts, in that order for
// Mantle and Cayu alike; no Debug or Fuzz while the file has errors or the folder is not trusted.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { hookLensRow, runAllLens, type LensHook } from '../../client/run/lens-row';

const mantle: LensHook = {
  file: '/a/hooks.py',
  handler: 'guard',
  engine: 'mantle',
  point: 'tool_call',
  lane: 'modify',
  timeoutMs: 500,
  wired: true,
};
const cayu: LensHook = {
  file: '/a/guard.py',
  handler: 'Guard.before_tool_call',
  engine: 'cayu',
  point: 'before_tool_call',
  lane: 'modify',
  wired: true,
};
const ok = { trusted: true, errors: [] };

describe('hook lens row', () => {
  it('Run · Debug · Fuzz · facts for Mantle and Cayu, each on the hook', () => {
    assert.deepEqual(
      hookLensRow(mantle, ok).map((l) => l.title),
      ['▶ Run hook', '$(debug-alt) Debug hook', 'Fuzz hook', 'tool_call · modify · 500 ms'],
    );
    assert.deepEqual(
      hookLensRow(cayu, ok).map((l) => l.title),
      ['▶ Run hook', '$(debug-alt) Debug hook', 'Fuzz hook', 'phase · before_tool_call'],
    );
    const commands = hookLensRow(cayu, ok).map((l) => l.command);
    assert.deepEqual(commands, ['hooksmith.runHook', 'hooksmith.debugHook', 'hooksmith.fuzzHook', '']);
    for (const l of hookLensRow(cayu, ok).slice(0, 3))
      assert.deepEqual(l.arguments, [{ file: '/a/guard.py', handler: 'Guard.before_tool_call' }]);
  });

  it('errors: "cannot run" in Run’s place, no Debug or Fuzz; untrusted: the trust lens only', () => {
    const errs = { trusted: true, errors: ['line 3: Hooks must be async'] };
    assert.deepEqual(
      hookLensRow(mantle, errs).map((l) => l.title),
      ['✖ cannot run: 1 error', 'tool_call · modify · 500 ms'],
    );
    assert.match(hookLensRow(mantle, errs)[0]!.tooltip, /line 3: Hooks must be async/);
    assert.deepEqual(
      hookLensRow({ ...mantle, wired: false }, { trusted: false, errors: [] }).map((l) => l.title),
      ['$(shield) Trust this folder to run hooks', 'tool_call · modify · 500 ms · not wired'],
    );
  });

  it('"Run all" only with two hooks or more that can run', () => {
    assert.equal(runAllLens('/a/hooks.py', 1, ok), undefined);
    assert.equal(runAllLens('/a/hooks.py', 2, { trusted: false, errors: [] }), undefined);
    assert.equal(runAllLens('/a/hooks.py', 3, ok)?.title, '▶ Run all 3 hooks in this file');
  });
});
