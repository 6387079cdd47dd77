// Message ids (Rule.messages, reportMessage): the text comes from the rule's table with its
// placeholders filled; an undeclared id or a missing placeholder is the rule's bug and throws.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { RULES } from '../../../runtime/rules';
import { reportMessage } from '../../../runtime/rules/util/diagnostic';
import { parseModule } from './helpers';
import { initParser } from '../../../runtime/python/parser';

const rule = { code: 'x', severity: 'warning' as const, messages: { hi: '{{who}} says {{ what }}.' } };
const range = { start: { line: 0, character: 0 }, end: { line: 0, character: 1 } };

test('reportMessage fills the template and names the id; an unknown id or missing data throws', async () => {
  await initParser();
  const module = parseModule('x = 1\n');
  const ctx = { module, text: 'x = 1\n', agentModules: [module], isMantleModule: true };
  const d = reportMessage(rule, ctx, range, 'hi', { who: '`a`', what: '$1 {{who}}' });
  assert.equal(d.message, '`a` says $1 {{who}}.');
  assert.equal(d.messageId, 'hi');
  assert.throws(() => reportMessage(rule, ctx, range, 'bye'), /x: no message bye/);
  assert.throws(() => reportMessage(rule, ctx, range, 'hi', { who: 'a' }), /needs \{\{what\}\}/);
});

test('every declared message is a non-empty sentence whose placeholders are words', () => {
  const declared = RULES.filter((r) => r.messages);
  // Every rule reports through its ids (#43 item 6): a new rule without them fails here.
  assert.deepEqual(
    RULES.filter((r) => !r.messages).map((r) => r.code),
    [],
  );
  assert.ok(declared.length >= 32, `rules with message ids: ${declared.length}`);
  for (const r of declared)
    for (const [id, text] of Object.entries(r.messages!)) {
      assert.match(id, /^[a-z][A-Za-z]*$/, `${r.code}.${id}`);
      assert.ok(text.trim().length > 10, `${r.code}.${id}`);
      assert.doesNotMatch(text.replace(/\{\{\s*\w+\s*\}\}/g, ''), /\{\{|\}\}/, `${r.code}.${id}`);
    }
});

test('no rule builds its text outside its messages: rule files do not import the plain report()', () => {
  const dir = join(__dirname, '../../../runtime/rules');
  const plain = readdirSync(dir)
    .filter((f) => f.endsWith('.ts'))
    .filter((f) =>
      /import \{[^}]*\breport\b[^}]*\} from '\.\/util\/diagnostic'/.test(readFileSync(join(dir, f), 'utf8')),
    );
  assert.deepEqual(plain, []);
});
