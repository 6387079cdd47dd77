import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { applyEdits, diagnose, ruleFor } from './helpers';
import { ruleTester } from './rule-tester';
import { CLEAN_HOOK, hookWith, IMPORTS } from './cayu-fixtures';

const CODE = 'cayu-return-annotation';

describe(CODE, () => {
  it('accepts X | None, Optional[X], X, None and no annotation', async () => {
    assert.deepEqual(await diagnose(CODE, CLEAN_HOOK), []);
    const imports = `from typing import Optional\n${IMPORTS}`;
    for (const m of [
      'async def before_tool_call(self, context) -> Optional[BeforeToolCallDecision]:\n    return None',
      'async def after_tool_call(self, context) -> "AfterToolCallDecision | None":\n    return None',
      'async def after_tool_call(self, context) -> AfterToolCallDecision:\n    return AfterToolCallDecision(action="pass_through")',
      'async def before_tool_call(self, context) -> None:\n    return None',
      'async def after_session_completed(self, context):\n    pass',
    ]) {
      assert.deepEqual(await diagnose(CODE, hookWith(m, imports)), [], m);
    }
  });

  it('flags the other decision type on before_tool_call, with a fix', async () => {
    const src = hookWith(
      'async def before_tool_call(self, context) -> AfterToolCallDecision | None:\n    return None',
    );
    const ds = await diagnose(CODE, src);
    assert.equal(ds.length, 1);
    const line = src.split('\n')[ds[0]!.range.start.line]!;
    assert.equal(
      line.slice(ds[0]!.range.start.character, ds[0]!.range.end.character),
      'AfterToolCallDecision | None',
    );
    const fixed = applyEdits(src, ds[0]!.fixes![0]!.edits);
    assert.ok(fixed.includes('-> BeforeToolCallDecision | None:'));
    assert.deepEqual(await diagnose(CODE, fixed), []);
  });

  it('flags after_tool_call -> dict and after_session_* returning a decision', async () => {
    assert.equal(
      (await diagnose(CODE, hookWith('async def after_tool_call(self, context) -> dict:\n    return {}')))
        .length,
      1,
    );
    for (const phase of ['after_session_completed', 'after_session_failed', 'after_session_interrupted']) {
      const ds = await diagnose(
        CODE,
        hookWith(`async def ${phase}(self, context) -> BeforeToolCallDecision | None:\n    return None`),
      );
      assert.equal(ds.length, 1, phase);
      assert.match(ds[0]!.message, /must return None/);
    }
  });
});

describe('cayu-return-annotation fix imports', () => {
  it('the return fix imports the decision type it names', async () => {
    const src =
      'from cayu import RuntimeHook\n\n\nclass Guard(RuntimeHook):\n' +
      '    async def before_tool_call(self, context) -> dict:\n        return None\n';
    const ds = await diagnose('cayu-return-annotation', src);
    assert.equal(ds.length, 1);
    const fixed = applyEdits(src, ds[0]!.fixes![0]!.edits);
    assert.match(fixed, /^from cayu import BeforeToolCallDecision, RuntimeHook$/m);
    assert.match(fixed, /-> BeforeToolCallDecision \| None:/);
    assert.deepEqual(await diagnose('undefined-name', fixed), []);
  });
});

// As a table (rule-tester.ts): the message ids and where (#43 item 6); the text checks above pin the wording.
const example = ruleFor('cayu-return-annotation').docs.example!;
const path = example.file;
ruleTester('cayu-return-annotation', {
  docsExample: { path, errors: [{ messageId: 'wrongReturn', line: 5, column: 77 }] },
  valid: [{ name: 'a hook overriding every phase correctly', code: CLEAN_HOOK, path }],
});
