import assert from 'node:assert/strict';
import { test } from 'node:test';
import { diagnose, py, ruleFor } from './helpers';
import { ruleTester } from './rule-tester';

test('syntax-error: reports exactly one diagnostic, the first error', async () => {
  const src = py`
    from rasa.mantle.hooks import on_turn_started

    @on_turn_started()
    async def mark(payload
        return None

    def other(:
        pass
  `;
  const diags = await diagnose('syntax-error', src);
  assert.equal(diags.length, 1);
  assert.equal(diags[0].severity, 'error');
  assert.equal(diags[0].code, 'syntax-error');
  assert.ok(diags[0].range.start.line >= 3 && diags[0].range.start.line <= 4, JSON.stringify(diags[0].range));
  assert.ok(diags[0].message.length > 0);
});

test('syntax-error: quiet on a valid module', async () => {
  assert.deepEqual(await diagnose('syntax-error', 'x = 1\n'), []);
});

// The rule's docs example as a table (rule-tester.ts): quiet on the fixed code; on the bad code,
// the message id it reports and where (#43 item 6).
const example = ruleFor('syntax-error').docs.example!;
ruleTester('syntax-error', {
  valid: [{ name: 'the docs example, fixed', code: example.good }],
  invalid: [
    { name: 'the docs example', code: example.bad, errors: [{ messageId: 'byParser', line: 4, column: 1 }] },
  ],
});
