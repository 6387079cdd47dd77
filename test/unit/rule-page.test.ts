// The editor's rule documentation view: a page's links to other pages (and to the README's rule
// list) stay in the view; links to other repository files, which the .vsix does not carry, go
// to the repository on the web.
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import {
  codeOfInViewHref,
  pageForView,
  pageSummary,
  ruleListMarkdown,
  viewHref,
} from '../../runtime/ui/rule-page';

test('links of a page, as the view shows them', () => {
  assert.equal(viewHref('not-wired.md'), '#rule:not-wired');
  assert.equal(viewHref('./not-wired.md'), '#rule:not-wired');
  assert.equal(viewHref('../../README.md#rule-reference'), '#rule:');
  assert.equal(
    viewHref('../../runtime/rules/not-wired.ts'),
    'https://github.com/hooksmith/hooksmith/blob/main/runtime/rules/not-wired.ts',
  );
  assert.equal(
    viewHref('../../README.md#suppressing-a-diagnostic'),
    'https://github.com/hooksmith/hooksmith/blob/main/README.md#suppressing-a-diagnostic',
  );
  assert.equal(viewHref('https://example.com/x'), 'https://example.com/x');
  assert.equal(viewHref('#why'), '#why');
  assert.equal(codeOfInViewHref('#rule:not-wired'), 'not-wired');
  assert.equal(codeOfInViewHref('#rule:'), '');
  assert.equal(codeOfInViewHref('#rule:../x'), undefined);
});

test('a generated page keeps its text and gets view links; the rule list links every page', () => {
  const md = readFileSync(join(__dirname, '..', '..', 'docs', 'rules', 'missing-parentheses.md'), 'utf8');
  const view = pageForView(md);
  assert.ok(view.includes('Parentheses are **mandatory**'));
  assert.ok(view.includes('[All rules](#rule:)'), view);
  assert.equal(pageSummary(md), '*Rasa Mantle · error · quick fix* — Hook decorators need parentheses');
  const list = ruleListMarkdown([{ code: 'missing-parentheses', markdown: md }]);
  assert.match(list, /^\| \[missing-parentheses\]\(#rule:missing-parentheses\) \| \*Rasa Mantle/m);
});
