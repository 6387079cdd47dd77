// Table-style rule tests, as typescript-eslint's RuleTester: `valid` sources the rule is quiet on,
// `invalid` cases each with the diagnostics expected (message id, 1-based line and column) and,
// where the rule fixes, the source after the first diagnostic's first fix. Tests name message ids, not English;
// a test that pins wording users see asserts the text beside the table.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { applyFix, diagnose, ruleFor, type DiagnoseOptions } from './helpers';

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

/** The rule's documented example (docs/rules/<code>.md): its errors, and how to diagnose it. */
export interface DocsExampleCase extends DiagnoseOptions {
  errors: readonly ExpectedDiagnostic[];
}

/**
 * `docsExample` adds the documented example's two cases first: its "use instead" valid, its
 * reported module invalid with these errors (path: the example's file, else the options').
 */
export function ruleTester(
  rule: string,
  cases: { docsExample?: DocsExampleCase; valid?: readonly ValidCase[]; invalid?: readonly InvalidCase[] },
): void {
  const { valid = [], invalid = [] } = withDocsExample(rule, cases);
  for (const c of valid)
    test(`${rule}: valid: ${c.name}`, async () => {
      assert.deepEqual(await diagnose(rule, c.code, c), []);
    });
  for (const c of invalid)
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

function withDocsExample(
  rule: string,
  cases: { docsExample?: DocsExampleCase; valid?: readonly ValidCase[]; invalid?: readonly InvalidCase[] },
): { valid: readonly ValidCase[]; invalid: readonly InvalidCase[] } {
  const { docsExample, valid = [], invalid = [] } = cases;
  if (!docsExample) return { valid, invalid };
  const example = ruleFor(rule).docs.example!;
  const { errors, ...options } = docsExample;
  return {
    valid: [{ name: 'the docs example, fixed', code: example.good, ...options }, ...valid],
    invalid: [{ name: 'the docs example', code: example.bad, ...options, errors }, ...invalid],
  };
}
