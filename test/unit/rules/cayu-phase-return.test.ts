// cayu-phase-return (#41): a tool-call phase returning what is never a decision or None. Cases
// the fix was not written from: the engine's own test (cayu v0.3.0 tests/core/test_runtime.py,
// `return "not a decision"`), aliases, nested functions, unannotated methods, and clean code.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { applyFix, diagnose, expectAt, py, rangeText } from './helpers';
import { CLEAN_HOOK, hookWith } from './cayu-fixtures';
import { ruleTester } from './rule-tester';

const CODE = 'cayu-phase-return';

describe(CODE, () => {
  it('stays quiet on decisions, None and bare returns', async () => {
    assert.deepEqual(await diagnose(CODE, CLEAN_HOOK), []);
  });

  it('flags the engine test: an unannotated after_tool_call returning a string', async () => {
    const src = py`
      from cayu import RuntimeHook


      def test_invalid_after_tool_call_decision_fails_even_when_observe_only():
          class BadReturnHook(RuntimeHook):
              async def after_tool_call(self, context):
                  return "not a decision"
    `;
    const ds = await diagnose(CODE, src, { path: 'tests/core/test_runtime.py' });
    expectAt(ds, ['7:20']);
    assert.match(ds[0]!.message, /returns a str: it must return `AfterToolCallDecision` or `None`/);
    assert.equal(ds[0]!.severity, 'error');
  });

  it('flags dict, list, number and builtin-call returns, context.result and context.arguments', async () => {
    const src = hookWith(
      [
        'async def before_tool_call(self, context: BeforeToolCallHookContext) -> BeforeToolCallDecision | None:',
        '    if context.tool_name == "a":',
        '        return {"action": "pass_through"}',
        '    if context.tool_name == "b":',
        '        return [1]',
        '    if context.tool_name == "c":',
        '        return -1',
        '    if context.tool_name == "d":',
        '        return dict(action="proceed")',
        '    return context.arguments',
        '',
        'async def after_tool_call(self, ctx):',
        '    return ctx.result',
      ].join('\n'),
    );
    const ds = await diagnose(CODE, src);
    assert.deepEqual(
      ds.map((d) => rangeText(src, d)),
      [
        '{"action": "pass_through"}',
        '[1]',
        '-1',
        'dict(action="proceed")',
        'context.arguments',
        'ctx.result',
      ],
    );
  });

  it('follows a local name bound only to such a value; not one also bound to a decision', async () => {
    const src = hookWith(
      [
        'async def after_tool_call(self, context):',
        '    out = "not a decision"',
        '    return out',
        '',
        'async def before_tool_call(self, context):',
        '    decision = {"action": "proceed"}',
        '    if context.tool_name == "x":',
        '        decision = BeforeToolCallDecision(action="block", block_reason="no")',
        '    return decision',
      ].join('\n'),
    );
    const ds = await diagnose(CODE, src);
    assert.deepEqual(
      ds.map((d) => rangeText(src, d)),
      ['out'],
    );
  });

  it('ignores returns of nested functions, session phases and methods that are no phase', async () => {
    const src = hookWith(
      [
        'async def before_tool_call(self, context):',
        '    def label():',
        '        return "nested"',
        '    return None',
        '',
        'async def after_session_completed(self, context):',
        '    return None',
        '',
        'def helper(self):',
        '    return {"action": "proceed"}',
      ].join('\n'),
    );
    assert.deepEqual(await diagnose(CODE, src), []);
  });

  it('a class imported under another name still counts; a decision returned as a variable stays clean', async () => {
    const src = py`
      from cayu.observability import RuntimeHook as Base, AfterToolCallDecision as After


      class Audit(Base):
          async def after_tool_call(self, context):
              decision = After(action="pass_through")
              return decision
    `;
    assert.deepEqual(await diagnose(CODE, src), []);
  });

  it('quick fix: {"action": "proceed"} becomes None', async () => {
    const src = hookWith('async def before_tool_call(self, context):\n    return {"action": "proceed"}');
    const [d] = await diagnose(CODE, src);
    assert.ok(applyFix(src, d!).includes('    return None\n'));
  });
});

// The rule's docs example as a table (rule-tester.ts): quiet on the fixed code; on the bad code,
// the message id it reports and where (#43 item 6).
ruleTester('cayu-phase-return', {
  docsExample: { path: 'runtime_hooks.py', errors: [{ messageId: 'wrongReturn', line: 6, column: 16 }] },
});
