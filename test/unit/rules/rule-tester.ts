// Table-style rule tests, as typescript-eslint's RuleTester: `valid` sources the rule is quiet on,
// `invalid` cases each with the diagnostics expected (message id, 1-based line and column) and,
// where the rule fixes, the source after the first diagnostic's first fix. Tests name message ids, not English;
// a test that pins wording users see asserts the text beside the table.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { applyFix, diagnose, type DiagnoseOptions } from './helpers';

export interface ExpectedDiagnostic {
  messageId: string;
  line: number;
  column: number;
}

export interface InvalidCase extends DiagnoseOptions {
  name: string;
  code: string;
  errors: readonly ExpectedDiagnostic[];
  /** The source after the first diagnostic's first fix. */
  output?: string;
}

export interface ValidCase extends DiagnoseOptions {
  name: string;
  code: string;
}

export function ruleTester(
  rule: string,
  cases: { valid: readonly ValidCase[]; invalid: readonly InvalidCase[] },
): void {
  for (const c of cases.valid)
    test(`${rule}: valid: ${c.name}`, async () => {
      assert.deepEqual(await diagnose(rule, c.code, c), []);
    });
  for (const c of cases.invalid)
    test(`${rule}: invalid: ${c.name}`, async () => {
      const found = await diagnose(rule, c.code, c);
      assert.deepEqual(
        found.map((d) => ({
          messageId: d.messageId,
          line: d.range.start.line + 1,
          column: d.range.start.character + 1,
        })),
        c.errors,
        found.map((d) => d.message).join('\n'),
      );
      if (c.output !== undefined) assert.equal(applyFix(c.code, found[0]!), c.output);
    });
}
