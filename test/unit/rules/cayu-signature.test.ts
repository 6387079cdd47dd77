import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { applyEdits, diagnose, ruleFor } from './helpers';
import { ruleTester } from './rule-tester';
import { CLEAN_HOOK, hookWith, CAYU_FAULTS } from './cayu-fixtures';

const CODE = 'cayu-signature';

describe(CODE, () => {
  it('accepts self + context with the right annotations, or none', async () => {
    assert.deepEqual(await diagnose(CODE, CLEAN_HOOK), []);
    assert.deepEqual(
      await diagnose(CODE, hookWith('async def after_session_failed(self, ctx, retries=3):\n    pass')),
      [],
    );
    assert.deepEqual(
      await diagnose(
        CODE,
        hookWith('async def before_tool_call(self, context: "BeforeToolCallHookContext"):\n    return None'),
      ),
      [],
    );
  });

  it('flags a phase without a context parameter on the parameter list', async () => {
    const src = hookWith('async def after_session_completed(self):\n    pass');
    const ds = await diagnose(CODE, src);
    assert.equal(ds.length, 1);
    assert.match(ds[0]!.message, /no context parameter/);
    const line = src.split('\n')[ds[0]!.range.start.line]!;
    assert.equal(line.slice(ds[0]!.range.start.character, ds[0]!.range.end.character), '(self)');
  });

  it('flags an extra required parameter on its name', async () => {
    const src = hookWith('async def after_session_interrupted(self, context, reason):\n    pass');
    const ds = await diagnose(CODE, src);
    assert.equal(ds.length, 1);
    const line = src.split('\n')[ds[0]!.range.start.line]!;
    assert.equal(line.slice(ds[0]!.range.start.character, ds[0]!.range.end.character), 'reason');
  });

  it('flags the wrong context type for the phase, with a fix to the right one', async () => {
    const src = hookWith(
      'async def after_tool_call(self, context: BeforeToolCallHookContext):\n    return None',
    );
    const ds = await diagnose(CODE, src);
    assert.equal(ds.length, 1);
    assert.match(ds[0]!.message, /ToolCallHookContext/);
    const fixed = applyEdits(src, ds[0]!.fixes![0]!.edits);
    assert.ok(fixed.includes('context: ToolCallHookContext)'));
    assert.deepEqual(await diagnose(CODE, fixed), []);
  });

  it('flags a session phase annotated with a tool context, and a before_tool_call annotated dict', async () => {
    assert.equal(
      (
        await diagnose(
          CODE,
          hookWith('async def after_session_failed(self, context: ToolCallHookContext):\n    pass'),
        )
      ).length,
      1,
    );
    assert.equal(
      (await diagnose(CODE, hookWith('async def before_tool_call(self, context: dict):\n    return None')))
        .length,
      1,
    );
  });
});

describe(`${CODE} fix imports`, () => {
  it('the annotation fix imports the context type it names, through the module own Cayu import', async () => {
    const src =
      'from cayu.observability import RuntimeHook\n\n\nclass Guard(RuntimeHook):\n' +
      '    async def before_tool_call(self, context: dict):\n        return None\n';
    const ds = await diagnose(CODE, src);
    assert.equal(ds.length, 1);
    const fixed = applyEdits(src, ds[0]!.fixes![0]!.edits);
    assert.match(fixed, /^from cayu\.observability import BeforeToolCallHookContext, RuntimeHook$/m);
    assert.match(fixed, /context: BeforeToolCallHookContext\)/);
    assert.deepEqual(await diagnose(CODE, fixed), []);
    assert.deepEqual(await diagnose('undefined-name', fixed), [], 'the fixed module loads');
  });

  it('spells the type through a module alias instead of importing it again', async () => {
    const src =
      'import cayu.observability as obs\n\n\nclass Guard(obs.RuntimeHook):\n' +
      '    async def after_tool_call(self, context: dict):\n        return None\n';
    const ds = await diagnose(CODE, src);
    const fixed = applyEdits(src, ds[0]!.fixes![0]!.edits);
    assert.match(fixed, /context: obs\.ToolCallHookContext\)/);
    assert.equal(fixed.split('\n')[0], 'import cayu.observability as obs');
  });
});

// As a table (rule-tester.ts): the message ids and where (#43 item 6); the text checks above pin the wording.
const example = ruleFor('cayu-signature').docs.example!;
const path = example.file;
ruleTester('cayu-signature', {
  docsExample: { path, errors: [{ messageId: 'wrongContext', line: 5, column: 46 }] },
  valid: [{ name: 'a hook overriding every phase correctly', code: CLEAN_HOOK, path }],
  invalid: [
    {
      name: 'missing and extra parameters',
      code: CAYU_FAULTS,
      path,
      errors: [
        { messageId: 'noContext', line: 5, column: 31 },
        { messageId: 'extraParameter', line: 8, column: 46 },
        { messageId: 'keywordOnlyParameter', line: 8, column: 56 },
      ],
    },
  ],
});
