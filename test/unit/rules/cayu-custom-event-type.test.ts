// cayu-custom-event-type (#41): types validate_public_custom_event_type rejects. The accepted and
// rejected strings are checked against the engine's own function (test/python-envs.ts: an
// interpreter that imports cayu.events), so the data cannot drift from the engine silently.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { applyFix, diagnose, py, rangeText } from './helpers';
import { hookWith } from './cayu-fixtures';
import { customEventTypeProblem } from '../../../runtime/rules/cayu-custom-event-type';
import { pythonWith, skipUnless } from '../../python-envs';
import { ruleTester } from './rule-tester';

const CODE = 'cayu-custom-event-type';
const TYPES = [
  'custom.order_placed',
  'custom.a.b-c.D_9',
  'custom.cayu',
  'custom.cayux.y',
  'order_placed',
  'custom.',
  'custom..x',
  'custom.a b',
  'custom.cayu.x',
  'Custom.x',
  'custom.x.',
  '',
];

describe(CODE, () => {
  const cayu = pythonWith(['cayu.events']);
  it('agrees with the installed engine on every sample type', skipUnless(cayu), () => {
    const python = cayu.python!;
    const script =
      'import json, sys\nfrom cayu.events import validate_public_custom_event_type as v\nout = []\n' +
      'for s in json.load(sys.stdin):\n    try:\n        v(s); out.append(True)\n    except ValueError:\n        out.append(False)\n' +
      'print(json.dumps(out))';
    const r = spawnSync(python, ['-c', script], { input: JSON.stringify(TYPES), encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
    const engine = JSON.parse(r.stdout) as boolean[];
    assert.deepEqual(
      TYPES.map((s) => customEventTypeProblem(s) === undefined),
      engine,
    );
  });

  it('flags literal types in any method of a hook, positional or event_type=; skips pytest.raises', async () => {
    const src = hookWith(
      [
        'async def after_tool_call(self, context):',
        '    await context.emit_custom_event("tool_seen", payload={})',
        '    await context.emit_custom_event(event_type="custom.cayu.fence")',
        '    await context.emit_custom_event("custom.ok")',
        '    await context.emit_custom_event(f"custom.{context.tool_name}")',
        '    return None',
        '',
        'async def _emit(self, ctx):',
        '    await ctx.emit_custom_event("custom..x")',
      ].join('\n'),
    );
    const ds = await diagnose(CODE, src);
    assert.deepEqual(
      ds.map((d) => rangeText(src, d)),
      ['"tool_seen"', '"custom.cayu.fence"', '"custom..x"'],
    );
    assert.match(ds[1]!.message, /reserved for cayu internals/);
    assert.ok(applyFix(src, ds[0]!).includes('emit_custom_event("custom.tool_seen", payload={})'));
    assert.equal(ds[1]!.fixes, undefined);
  });

  it('reads a module-level name bound once to a literal, as cayu tests write it; no other binding', async () => {
    // Modelled on cayu's own namespace test (a reserved type kept in a module constant).
    const src = py`
      import asyncio
      from cayu.observability import RuntimeHook
      from events import IMPORTED_TYPE

      RESERVED = "custom.cayu.audit"
      BARE: str = "audit_done"
      FINE = "custom.app.audit"
      TWICE = "custom.cayu.a"
      TWICE = "custom.app.b"
      GROWN = "custom."
      GROWN += "x"
      MOVED = "custom.cayu.m"


      def move():
          global MOVED
          MOVED = "custom.app.m"


      class Hook(RuntimeHook):
          RESERVED = "custom.app.shadowed_in_class_only"

          async def after_session_completed(self, context):
              await context.emit_custom_event(RESERVED)
              await context.emit_custom_event(event_type=BARE)
              await context.emit_custom_event(FINE)
              await context.emit_custom_event(TWICE)
              await context.emit_custom_event(GROWN)
              await context.emit_custom_event(MOVED)
              await context.emit_custom_event(IMPORTED_TYPE)
              await context.emit_custom_event(self.RESERVED)
    `;
    const ds = await diagnose(CODE, src);
    assert.deepEqual(
      ds.map((d) => rangeText(src, d)),
      ['RESERVED', 'BARE'],
    );
    assert.match(
      ds[0]!.message,
      /`custom\.cayu\.audit` \(the value of `RESERVED`\) is in the `custom\.cayu\.` namespace/,
    );
    assert.equal(ds[1]!.fixes, undefined, 'no quick fix writes a literal over the name');
  });

  it('the engine test that expects the rejection (inside pytest.raises) and non-hook classes stay quiet', async () => {
    const src = py`
      import pytest
      from cayu import RuntimeHook


      class Hook(RuntimeHook):
          async def after_session_completed(self, context):
              with pytest.raises(ValueError):
                  await context.emit_custom_event("custom.cayu.x")


      class Workflowish:
          async def run(self, ctx):
              await ctx.emit_custom_event("not.custom")
    `;
    assert.deepEqual(await diagnose(CODE, src), []);
  });
});

// The rule's docs example as a table (rule-tester.ts): quiet on the fixed code; on the bad code,
// the message id it reports and where (#43 item 6).
ruleTester('cayu-custom-event-type', {
  docsExample: { path: 'runtime_hooks.py', errors: [{ messageId: 'invalidEventType', line: 6, column: 41 }] },
});
