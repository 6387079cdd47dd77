import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { applyEdits, diagnose, ruleFor } from './helpers';
import { ruleTester } from './rule-tester';
import { CLEAN_HOOK, hookWith, CAYU_FAULTS } from './cayu-fixtures';

const CODE = 'cayu-unknown-phase';

describe(CODE, () => {
  it('accepts the five phases and other method names', async () => {
    assert.deepEqual(await diagnose(CODE, CLEAN_HOOK), []);
    assert.deepEqual(await diagnose(CODE, hookWith('def _redact(self, text):\n    return text')), []);
  });

  it('flags a misspelt phase with a did-you-mean rename', async () => {
    const src = hookWith('async def after_tool_cal(self, context):\n    return None');
    const ds = await diagnose(CODE, src);
    assert.equal(ds.length, 1);
    assert.equal(ds[0]!.severity, 'warning');
    assert.match(ds[0]!.message, /did you mean 'after_tool_call'/);
    const fixed = applyEdits(src, ds[0]!.fixes![0]!.edits);
    assert.ok(fixed.includes('async def after_tool_call(self, context):'));
    assert.deepEqual(await diagnose(CODE, fixed), []);
  });

  it('suggests after_session_failed for after_session_fail, and nothing for a far name', async () => {
    const near = await diagnose(CODE, hookWith('async def after_session_fail(self, context):\n    pass'));
    assert.match(near[0]!.message, /after_session_failed/);
    const far = await diagnose(
      CODE,
      hookWith('async def before_everything_else_happens(self, context):\n    pass'),
    );
    assert.equal(far.length, 1);
    assert.equal(far[0]!.fixes, undefined);
  });

  it('ignores before_/after_ methods on classes that are not RuntimeHooks', async () => {
    assert.deepEqual(
      await diagnose(CODE, 'class Plain:\n    async def after_tool_cal(self, c):\n        pass\n'),
      [],
    );
  });
});

// As a table (rule-tester.ts): the message ids and where (#43 item 6); the text checks above pin the wording.
const example = ruleFor('cayu-unknown-phase').docs.example!;
const path = example.file;
ruleTester('cayu-unknown-phase', {
  docsExample: { path, errors: [{ messageId: 'notAPhaseGuess', line: 5, column: 15 }] },
  valid: [{ name: 'a hook overriding every phase correctly', code: CLEAN_HOOK, path }],
  invalid: [
    {
      name: 'a name close to no phase',
      code: CAYU_FAULTS,
      path,
      errors: [{ messageId: 'notAPhase', line: 23, column: 15 }],
    },
  ],
});
