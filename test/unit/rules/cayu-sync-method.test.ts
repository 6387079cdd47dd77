import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { applyEdits, diagnose, ruleFor } from './helpers';
import { ruleTester } from './rule-tester';
import { CLEAN_HOOK, hookWith } from './cayu-fixtures';
import { CAYU_PHASE_IDS } from '../../../runtime/catalogue';

const CODE = 'cayu-sync-method';

describe(CODE, () => {
  it('accepts async phase methods', async () => {
    assert.deepEqual(await diagnose(CODE, CLEAN_HOOK), []);
  });

  for (const phase of CAYU_PHASE_IDS) {
    it(`flags a plain def ${phase} on its name, with an "async " fix`, async () => {
      const src = hookWith(`def ${phase}(self, context):\n    return None`);
      const ds = await diagnose(CODE, src);
      assert.equal(ds.length, 1);
      const line = src.split('\n').findIndex((l) => l.includes(`def ${phase}`));
      assert.equal(ds[0]!.range.start.line, line);
      assert.equal(ds[0]!.range.start.character, 8);
      assert.equal(ds[0]!.range.end.character, 8 + phase.length);
      assert.equal(ds[0]!.severity, 'error');
      const fixed = applyEdits(src, ds[0]!.fixes![0]!.edits);
      assert.ok(fixed.includes(`    async def ${phase}(self, context):`));
      assert.deepEqual(await diagnose(CODE, fixed), []);
    });
  }

  it('ignores non-phase sync methods, and classes that are not RuntimeHooks', async () => {
    const src = `from cayu.observability import RuntimeHook\n\nclass H(RuntimeHook):\n    def helper(self):\n        return 1\n\nclass Other:\n    def before_tool_call(self, context):\n        return None\n`;
    assert.deepEqual(await diagnose(CODE, src), []);
  });

  it('accepts RuntimeHook imported from cayu or cayu.runtime.hooks, and subclasses of subclasses', async () => {
    for (const imp of ['from cayu import RuntimeHook', 'from cayu.runtime.hooks import RuntimeHook']) {
      const src = `${imp}\n\nclass Base(RuntimeHook):\n    pass\n\nclass H(Base):\n    def after_session_failed(self, context):\n        pass\n`;
      const ds = await diagnose(CODE, src);
      assert.equal(ds.length, 1, imp);
    }
    const mod = `import cayu.observability as obs\n\nclass H(obs.RuntimeHook):\n    def after_tool_call(self, context):\n        return None\n`;
    assert.equal((await diagnose(CODE, mod)).length, 1);
  });
});

// As a table (rule-tester.ts): the message ids and where (#43 item 6); the text checks above pin the wording.
const example = ruleFor('cayu-sync-method').docs.example!;
const path = example.file;
ruleTester('cayu-sync-method', {
  docsExample: { path, errors: [{ messageId: 'notAsync', line: 5, column: 9 }] },
  valid: [{ name: 'a hook overriding every phase correctly', code: CLEAN_HOOK, path }],
});
