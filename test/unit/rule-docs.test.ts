// Every rule has its page, docs/rules/<code>.md, generated from the rule's metadata (and the
// README's table linking them): the pages must be current, one per code, none left over.
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { RULES } from '../../runtime/rules';
import { ruleCodeOfDocsUrl, ruleDocsUrl } from '../../runtime/rules/diagnostics';
import { outOfDate, rulePages, RULE_PAGES_DIR } from '../../scripts/gen-rule-docs';

const ROOT = join(__dirname, '..', '..');
const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');

test('the rule pages and the README rule table are up to date (npm run gen)', () => {
  assert.deepEqual(outOfDate(), []);
});

test('every rule code has its page, with what, why, spec and fix, and a README table row linking it', () => {
  const pages = rulePages();
  assert.equal(pages.size, RULES.length);
  for (const rule of RULES) {
    const page = pages.get(`${RULE_PAGES_DIR}/${rule.code}.md`);
    assert.ok(page, rule.code);
    assert.match(page, new RegExp(`^# ${rule.code}\n`), rule.code);
    for (const heading of ['What it catches', 'Why', 'Spec', 'How to fix'])
      assert.match(page, new RegExp(`^## ${heading}$`, 'm'), `${rule.code}: ${heading}`);
    assert.ok(page.includes(rule.docs.why), rule.code);
    assert.ok(
      readme.includes(`| [\`${rule.code}\`](${RULE_PAGES_DIR}/${rule.code}.md) | ${rule.severity} |`),
      rule.code,
    );
  }
});

test('every rule documents what, why, the spec sentence and the fix', () => {
  for (const rule of RULES) {
    for (const k of ['what', 'why', 'spec', 'fix'] as const) {
      const v = rule.docs[k];
      assert.ok(v.length > 20 && !/TODO/.test(v), `${rule.code}.docs.${k}`);
    }
  }
});

test("a code's web link is its page in the repository named by package.json", () => {
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { repository: { url: string } };
  const repo = pkg.repository.url.replace(/\.git$/, '');
  assert.equal(ruleDocsUrl('missing-parentheses'), `${repo}/blob/main/docs/rules/missing-parentheses.md`);
});

test('the client finds the rule code of a page link again (to open the page it ships)', () => {
  for (const rule of RULES) assert.equal(ruleCodeOfDocsUrl(ruleDocsUrl(rule.code)), rule.code);
  assert.equal(ruleCodeOfDocsUrl('https://github.com/hooksmith/hooksmith/blob/main/README.md'), undefined);
  assert.equal(ruleCodeOfDocsUrl('https://example.com/blob/main/docs/rules/not-wired.md'), undefined);
  assert.equal(ruleCodeOfDocsUrl(`${ruleDocsUrl('not-wired')}/../../x.md`), undefined);
});
