// cayu-hook-name (#41): a `name` registration rejects (blank, padded, NUL, not a str, a method).
// Cases from the engine's own tests (cayu v0.3.0: BlankNameHook in tests/core/test_runtime.py;
// SingleReadNameHook in test_runtime_diagnostic_boundaries.py, which registers fine).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { applyFix, diagnose, py, rangeText } from './helpers';
import { CLEAN_HOOK, IMPORTS } from './cayu-fixtures';
import { ruleTester } from './rule-tester';

const CODE = 'cayu-hook-name';
const hook = (body: string) =>
  `${IMPORTS}\n\nclass Audit(RuntimeHook):\n${body}\n\n    async def after_tool_call(self, context):\n        return None\n`;

describe(CODE, () => {
  it('stays quiet on no name, a clean class attribute or property, and computed names', async () => {
    assert.deepEqual(await diagnose(CODE, CLEAN_HOOK), []);
    for (const body of [
      '    name = "audit"',
      '    name: str = "audit"',
      '    name = NAME_FROM_SETTINGS',
      '    @property\n    def name(self) -> str:\n        return "audit"',
      '    @property\n    def name(self) -> str:\n        return f"audit-{self.tenant}"',
    ])
      assert.deepEqual(await diagnose(CODE, hook(body)), [], body);
  });

  it('flags blank, padded, None and non-string class attributes', async () => {
    for (const [body, why] of [
      ['    name = ""', /is blank/],
      ['    name = "   "', /is blank/],
      ['    name = " audit"', /starts or ends with whitespace/],
      ['    name = None', /is None, not a str/],
      ['    name: str = 3', /is a number, not a str/],
      ['    name = ["a"]', /is a list, not a str/],
    ] as const) {
      const ds = await diagnose(CODE, hook(body));
      assert.equal(ds.length, 1, body);
      assert.match(ds[0]!.message, why);
      assert.equal(ds[0]!.severity, 'error');
    }
  });

  it('flags the engine test BlankNameHook (a property) and a name method without @property', async () => {
    const src = py`
      from cayu import RuntimeHook


      def test_app_rejects():
          class BlankNameHook(RuntimeHook):
              @property
              def name(self) -> str:
                  return " "

          class NotAProperty(RuntimeHook):
              def name(self) -> str:
                  return "x"
    `;
    const ds = await diagnose(CODE, src, { path: 'tests/core/test_runtime.py' });
    assert.deepEqual(
      ds.map((d) => rangeText(src, d)),
      ['" "', 'name'],
    );
    assert.match(ds[1]!.message, /a method, not a property/);
    assert.ok(
      applyFix(src, ds[1]!).includes(
        '        @property\n        def name(self) -> str:\n            return "x"',
      ),
    );
  });

  it('a property whose first read is a good name registers (the engine reads it once): quiet', async () => {
    const body =
      '    @property\n    def name(self) -> str:\n        self.reads += 1\n        if self.reads == 1:\n            return "frozen-hook"\n        return "bad\\u0000hook"';
    assert.deepEqual(await diagnose(CODE, hook(body)), []);
  });

  it('quick fix strips a padded name', async () => {
    const src = hook('    name = " audit "');
    const [d] = await diagnose(CODE, src);
    assert.ok(applyFix(src, d!).includes('    name = "audit"\n'));
  });
});

// The rule's docs example as a table (rule-tester.ts): quiet on the fixed code; on the bad code,
// the message id it reports and where (#43 item 6).
ruleTester('cayu-hook-name', {
  docsExample: { path: 'runtime_hooks.py', errors: [{ messageId: 'invalidName', line: 5, column: 5 }] },
});
