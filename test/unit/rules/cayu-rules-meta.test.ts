// Every Cayu rule is registered under its code with the DESIGN.md severity, documented
// (the rule pages docs/rules/*.md are generated from these docs), and quiet on non-Cayu code.
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { RULES } from '../../../runtime/rules';
import { diagnose } from './helpers';
import { CLEAN_HOOK } from './cayu-fixtures';

const ERRORS = [
  'cayu-sync-method',
  'cayu-signature',
  'cayu-return-annotation',
  'cayu-decision-fields',
  'cayu-phase-return',
  'cayu-hook-name',
  'cayu-custom-event-type',
];
const WARNINGS = ['cayu-unknown-phase', 'cayu-arguments-mutation'];
const CODES = [...ERRORS, ...WARNINGS];
const cayuRules = () => RULES.filter((r) => r.engine === 'cayu');

test('Cayu rules: one file per code, registered, engine cayu, DESIGN.md severity', () => {
  const files = readdirSync(join(__dirname, '../../../runtime/rules')).map((f) => f.replace(/\.ts$/, ''));
  for (const code of CODES) assert.ok(files.includes(code), `runtime/rules/${code}.ts`);
  assert.deepEqual(
    cayuRules()
      .map((r) => r.code)
      .sort(),
    [...CODES].sort(),
  );
  for (const r of cayuRules())
    assert.equal(r.severity, ERRORS.includes(r.code) ? 'error' : 'warning', r.code);
});

test('Cayu rules: docs are written (what, why, a quoted spec sentence with its source, fix)', () => {
  for (const r of cayuRules()) {
    assert.ok(r.title.length > 10 && !/TODO/.test(r.title), `${r.code} title`);
    for (const key of ['what', 'why', 'fix'] as const)
      assert.ok(r.docs[key].length > 40 && !/TODO/.test(r.docs[key]), `${r.code} docs.${key}`);
    assert.match(
      r.docs.spec,
      /(spec\/cayu-runtime-hooks\.md|DESIGN\.md)/,
      `${r.code} docs.spec names its source`,
    );
    assert.match(r.docs.spec, /"[^"]{10,}"/, `${r.code} docs.spec quotes a sentence`);
  }
});

test('Cayu rules: silent on the clean hook and on Mantle-only code; every diagnostic carries its own code', async () => {
  const mantle =
    'from rasa.mantle.hooks import on_turn_started\n\n@on_turn_started()\ndef before_tool_call(context):\n    context.arguments["x"] = 1\n';
  for (const r of cayuRules()) {
    assert.deepEqual(await diagnose(r.code, CLEAN_HOOK), [], r.code);
    assert.deepEqual(await diagnose(r.code, mantle), [], r.code);
  }
});
