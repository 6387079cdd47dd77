import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { diagnose, ruleFor } from './helpers';
import { ruleTester } from './rule-tester';
import { CLEAN_HOOK, hookWith, CAYU_FAULTS } from './cayu-fixtures';

const CODE = 'cayu-arguments-mutation';

describe(CODE, () => {
  it('accepts reading and copying the arguments', async () => {
    assert.deepEqual(await diagnose(CODE, CLEAN_HOOK), []);
  });

  it('flags item assignment, mutating calls and deletion in before_tool_call', async () => {
    const src = hookWith(
      'async def before_tool_call(self, context):\n    context.arguments["limit"] = 10\n    context.arguments.update(page=2)\n    del context.arguments["x"]\n    return None',
    );
    const ds = await diagnose(CODE, src);
    assert.equal(ds.length, 3);
    assert.ok(ds.every((d) => d.severity === 'warning'));
    const lines = src.split('\n');
    assert.ok(lines[ds[0]!.range.start.line]!.includes('context.arguments["limit"] = 10'));
    assert.match(ds[1]!.message, /\.update\(\)/);
    assert.match(ds[0]!.message, /proceed_modified/);
  });

  it('flags it in after_tool_call under another parameter name', async () => {
    const ds = await diagnose(
      CODE,
      hookWith('async def after_tool_call(self, ctx):\n    ctx.arguments.pop("k")\n    return None'),
    );
    assert.equal(ds.length, 1);
    assert.match(ds[0]!.message, /ctx\.arguments/);
  });

  it('ignores writes to a local copy', async () => {
    assert.deepEqual(
      await diagnose(
        CODE,
        hookWith(
          'async def before_tool_call(self, context):\n    args = dict(context.arguments)\n    args["a"] = 1\n    return None',
        ),
      ),
      [],
    );
  });
});

describe(`${CODE} through an alias (#41)`, () => {
  it('flags a write through a name or self attribute bound only to context.arguments', async () => {
    const src = hookWith(
      [
        'async def before_tool_call(self, context):',
        '    args = context.arguments',
        '    args["limit"] = 10',
        '    args.pop("page", None)',
        '    self.args = context.arguments',
        '    self.args["x"] = 1',
        '    return None',
      ].join('\n'),
    );
    const ds = await diagnose(CODE, src);
    const lines = src.split('\n');
    assert.deepEqual(
      ds.map((d) => lines[d.range.start.line]!.trim()),
      ['args["limit"] = 10', 'args.pop("page", None)', 'self.args["x"] = 1'],
    );
    assert.match(ds[0]!.message, /args is context\.arguments, a read-only copy/);
  });

  it('stays quiet when the alias carries the change on: passed on, returned, or read by another method', async () => {
    for (const method of [
      'async def before_tool_call(self, context):\n    args = context.arguments\n    args["limit"] = 10\n    return BeforeToolCallDecision(action="proceed_modified", modified_arguments=args)',
      'async def before_tool_call(self, context):\n    args = context.arguments\n    args["limit"] = 10\n    self.seen.append(args)\n    return None',
      'async def before_tool_call(self, context):\n    self.args = context.arguments\n    self.args["x"] = 1\n    return None\n\nasync def after_tool_call(self, context):\n    print(self.args)\n    return None',
      'async def before_tool_call(self, context):\n    args = context.arguments\n    args = dict(args)\n    args["x"] = 1\n    return None',
      'async def before_tool_call(self, context):\n    def inner():\n        args = context.arguments\n        args["x"] = 1\n    return None',
    ])
      assert.deepEqual(await diagnose(CODE, hookWith(method)), [], method);
  });
});

// As a table (rule-tester.ts): the message ids and where (#43 item 6); the text checks above pin the wording.
const example = ruleFor('cayu-arguments-mutation').docs.example!;
const path = example.file;
ruleTester('cayu-arguments-mutation', {
  docsExample: { path, errors: [{ messageId: 'copyWriteBeforeToolCall', line: 6, column: 9 }] },
  valid: [{ name: 'a hook overriding every phase correctly', code: CLEAN_HOOK, path }],
  invalid: [
    {
      name: 'outside before_tool_call, directly and through an alias',
      code: CAYU_FAULTS,
      path,
      errors: [
        { messageId: 'copyWrite', line: 9, column: 9 },
        { messageId: 'aliasWrite', line: 14, column: 9 },
      ],
    },
  ],
});
