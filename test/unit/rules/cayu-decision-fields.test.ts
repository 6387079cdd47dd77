import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { diagnose, py, ruleFor } from './helpers';
import { ruleTester } from './rule-tester';
import { CLEAN_HOOK, hookWith } from './cayu-fixtures';
import type { HookDiagnostic } from '../../../runtime/rules/diagnostics';

const CODE = 'cayu-decision-fields';

/** The source text a diagnostic's range covers. */
function covered(src: string, d: HookDiagnostic): string {
  const lines = src.split('\n');
  assert.equal(d.range.start.line, d.range.end.line);
  return lines[d.range.start.line]!.slice(d.range.start.character, d.range.end.character);
}

async function one(method: string): Promise<{ src: string; d: HookDiagnostic }> {
  const src = hookWith(method);
  const ds = await diagnose(CODE, src);
  assert.equal(ds.length, 1, JSON.stringify(ds.map((d) => d.message)));
  return { src, d: ds[0]! };
}

describe(CODE, () => {
  it("does not flag a decision a test builds on purpose (under pytest.raises): it is no hook's error", async () => {
    const test = [
      'import pytest',
      'from pydantic import ValidationError',
      'from cayu import BeforeToolCallDecision',
      '',
      '',
      'def test_block_requires_reason():',
      '    with pytest.raises(ValidationError):',
      '        BeforeToolCallDecision(action="block")',
      '',
    ].join('\n');
    assert.deepEqual(await diagnose(CODE, test, { path: 'tests/test_decisions.py' }), []);
    assert.deepEqual(
      await diagnose(CODE, test, { path: 'hooks_helpers.py' }),
      [],
      'a test_* function anywhere',
    );
    const helper = test.replace('def test_block_requires_reason', 'def build');
    assert.equal(
      (await diagnose(CODE, helper, { path: 'hooks_helpers.py' })).length,
      1,
      'a helper a hook calls',
    );
  });

  it('flags a hook a test file defines (a factory in test_*.py); exempts only decisions built expecting a failure', async () => {
    const test = [
      'import pytest',
      'import unittest',
      'from pydantic import ValidationError',
      'from cayu import BeforeToolCallDecision, RuntimeHook',
      '',
      '',
      'def make_hook():',
      '    class Cached(RuntimeHook):',
      '        async def before_tool_call(self, context):',
      '            return BeforeToolCallDecision(action="short_circuit")',
      '    return Cached()',
      '',
      '',
      'def test_cached_hook():',
      '    hook = make_hook()',
      '    decision = BeforeToolCallDecision(action="block")',
      '    with pytest.raises(ValidationError):',
      '        BeforeToolCallDecision(action="block")',
      '    try:',
      '        BeforeToolCallDecision(action="short_circuit")',
      '    except ValidationError:',
      '        pass',
      '',
      '',
      'class TestDecisions(unittest.TestCase):',
      '    def test_reason(self):',
      '        with self.assertRaises(ValidationError):',
      '            BeforeToolCallDecision(action="block", block_reason="")',
      '',
    ].join('\n');
    const ds = await diagnose(CODE, test, { path: 'tests/test_hooks.py' });
    assert.deepEqual(
      ds.map((d) => d.range.start.line + 1).sort((a, b) => a - b),
      [10, 16],
      'the factory hook and the decision built outside pytest.raises: ' +
        JSON.stringify(ds.map((d) => d.message)),
    );
    assert.ok(ds.some((d) => /requires `synthetic_result`/.test(d.message)));
  });

  it('accepts every action with its own field', async () => {
    assert.deepEqual(await diagnose(CODE, CLEAN_HOOK), []);
    const ok = hookWith(
      [
        'async def before_tool_call(self, context):',
        '    if context.tool_name == "a":',
        '        return BeforeToolCallDecision(action="proceed")',
        '    if context.tool_name == "b":',
        '        return BeforeToolCallDecision(action="short_circuit", synthetic_result=ToolResult(content="cached"))',
        '    return BeforeToolCallDecision(action="proceed", block_reason=None)',
        '',
        'async def after_tool_call(self, context):',
        '    return AfterToolCallDecision(action="pass_through")',
      ].join('\n'),
    );
    assert.deepEqual(await diagnose(CODE, ok), []);
  });

  it('flags an action literal that does not exist, on the literal, with did-you-mean', async () => {
    const { src, d } = await one(
      'async def before_tool_call(self, context):\n    return BeforeToolCallDecision(action="deny", block_reason="no")',
    );
    assert.equal(covered(src, d), '"deny"');
    const { d: d2 } = await one(
      'async def before_tool_call(self, context):\n    return BeforeToolCallDecision(action="proceed_modifed", modified_arguments={})',
    );
    assert.match(d2.message, /did you mean `proceed_modified`\?/);
    // Styled like the Mantle messages: names in backticks, then what it leads to.
    assert.match(
      d2.message,
      /raises ValidationError inside the hook: the runtime logs the failure and goes on as if the hook returned None \(a guard lets the call run unguarded\)\.$/,
    );
  });

  it('flags each action without its companion field', async () => {
    const cases: [string, string][] = [
      ['before_tool_call', 'BeforeToolCallDecision(action="proceed_modified")'],
      ['before_tool_call', 'BeforeToolCallDecision(action="short_circuit")'],
      ['before_tool_call', 'BeforeToolCallDecision(action="block")'],
      ['after_tool_call', 'AfterToolCallDecision(action="modify")'],
      ['after_tool_call', 'AfterToolCallDecision(action="modify", modified_result=None)'],
    ];
    for (const [phase, call] of cases) {
      const { d } = await one(`async def ${phase}(self, context):\n    return ${call}`);
      assert.match(
        d.message,
        /^`action="\w+"` requires `(modified_arguments|synthetic_result|block_reason|modified_result)`: constructing it raises ValidationError/,
        call,
      );
    }
  });

  it('flags a companion field given with another action, on the keyword', async () => {
    const { src, d } = await one(
      'async def before_tool_call(self, context):\n    return BeforeToolCallDecision(action="proceed", modified_arguments={"a": 1})',
    );
    assert.equal(covered(src, d), 'modified_arguments');
    assert.match(d.message, /only valid with `action="proceed_modified"`/);
  });

  it('flags a blank block_reason', async () => {
    const { src, d } = await one(
      'async def before_tool_call(self, context):\n    return BeforeToolCallDecision(action="block", block_reason="   ")',
    );
    assert.equal(covered(src, d), '"   "');
  });

  it('flags an unknown keyword (extra="forbid") and positional arguments', async () => {
    const { src, d } = await one(
      'async def after_tool_call(self, context):\n    return AfterToolCallDecision(action="pass_through", reason="x")',
    );
    assert.equal(covered(src, d), 'reason');
    const { d: d2 } = await one(
      'async def after_tool_call(self, context):\n    return AfterToolCallDecision("pass_through")',
    );
    assert.match(d2.message, /keyword arguments only|needs an action/);
  });

  it('flags a decision of the wrong kind for the phase, on the callee', async () => {
    const { src, d } = await one(
      'async def before_tool_call(self, context):\n    return AfterToolCallDecision(action="pass_through")',
    );
    assert.equal(covered(src, d), 'AfterToolCallDecision');
    for (const phase of ['after_session_completed', 'after_session_failed', 'after_session_interrupted']) {
      const { d: ds } = await one(
        `async def ${phase}(self, context):\n    return BeforeToolCallDecision(action="proceed")`,
      );
      assert.match(ds.message, /returns `None`/);
    }
  });

  it('checks decisions built in helpers and through a module alias, and skips computed actions', async () => {
    const src = `import cayu.observability as obs\n\nclass H(obs.RuntimeHook):\n    def _deny(self):\n        return obs.BeforeToolCallDecision(action="block")\n\n    async def before_tool_call(self, context):\n        action = "proceed"\n        return obs.BeforeToolCallDecision(action=action)\n`;
    const ds = await diagnose(CODE, src);
    assert.equal(ds.length, 1);
    assert.match(ds[0]!.message, /requires `block_reason`/);
  });

  it('does not flag unrelated classes named like decisions', async () => {
    const src = `class BeforeToolCallDecision:\n    def __init__(self, **kw):\n        pass\n\ndef f():\n    return BeforeToolCallDecision(action="nope")\n`;
    assert.deepEqual(await diagnose(CODE, src), []);
  });
});

// As a table (rule-tester.ts): the message ids and where (#43 item 6); the text checks above pin the wording.
const example = ruleFor('cayu-decision-fields').docs.example!;
const path = example.file;
const decisions = py`
    from cayu.observability import BeforeToolCallDecision, BeforeToolCallHookContext, RuntimeHook


    class Guard(RuntimeHook):
        async def before_tool_call(self, context: BeforeToolCallHookContext) -> BeforeToolCallDecision | None:
            if context.tool_name == "a":
                return BeforeToolCallDecision("block")
            if context.tool_name == "b":
                return BeforeToolCallDecision(action="blok", block_reasn="x")
            if context.tool_name == "c":
                return BeforeToolCallDecision(action="proceed", block_reason="x")
            if context.tool_name == "d":
                return BeforeToolCallDecision(action="block", block_reason=" ")
            if context.tool_name == "e":
                return BeforeToolCallDecision(action="zzzzzzzz", zzzzzzzzzzz=1)
            return BeforeToolCallDecision()
`;
const otherPhase = py`
    from cayu.observability import BeforeToolCallDecision, RuntimeHook


    class Guard(RuntimeHook):
        async def after_tool_call(self, context) -> None:
            return BeforeToolCallDecision(action="proceed")
`;
ruleTester('cayu-decision-fields', {
  docsExample: { path, errors: [{ messageId: 'missingCompanion', line: 7, column: 50 }] },
  valid: [{ name: 'a hook overriding every phase correctly', code: CLEAN_HOOK, path }],
  invalid: [
    {
      name: 'what each field and action check reports',
      code: decisions,
      path,
      errors: [
        { messageId: 'positionalArgument', line: 7, column: 43 },
        { messageId: 'unknownFieldGuess', line: 9, column: 58 },
        { messageId: 'unknownActionGuess', line: 9, column: 50 },
        { messageId: 'fieldOfOtherAction', line: 11, column: 61 },
        { messageId: 'blankBlockReason', line: 13, column: 72 },
        { messageId: 'unknownField', line: 15, column: 62 },
        { messageId: 'unknownAction', line: 15, column: 50 },
        { messageId: 'missingAction', line: 16, column: 16 },
      ],
    },
    {
      name: 'a decision of another phase',
      code: otherPhase,
      path,
      errors: [{ messageId: 'wrongKind', line: 6, column: 16 }],
    },
  ],
});
