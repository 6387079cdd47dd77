// The README's rule reference is generated from the rules' metadata: it must be current,
// and every diagnostic code (each one a link target of codeDescription) must have a section.
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { RULES } from '../../runtime/rules';
import { readmeWithRules } from '../../scripts/gen-rule-docs';

const readme = readFileSync(join(__dirname, '..', '..', 'README.md'), 'utf8');

test('README rule reference is up to date (npx tsx scripts/gen-rule-docs.ts)', () => {
  assert.equal(readmeWithRules(readme), readme);
});

test('every rule code has its own README section', () => {
  for (const rule of RULES) assert.match(readme, new RegExp(`^### ${rule.code}$`, 'm'), rule.code);
});

test('every rule documents what, why, the spec sentence and the fix', () => {
  for (const rule of RULES) {
    for (const [k, v] of Object.entries(rule.docs))
      assert.ok(v.length > 20 && !/TODO/.test(v), `${rule.code}.docs.${k}`);
  }
});
