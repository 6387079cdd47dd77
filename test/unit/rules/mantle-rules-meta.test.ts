// Every Mantle rule is registered under its code, documented (the rule pages docs/rules/*.md are
// generated from these docs), and survives half-typed and hostile source without throwing.
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { initParser } from '../../../runtime/python/parser';
import { RULES } from '../../../runtime/rules';
import { parseModule, py } from './helpers';
import { SPEC_EXAMPLES } from './spec-examples';

// DESIGN.md, "Diagnostic codes": errors are what the engine rejects; the rest go beyond it.
const ERRORS = [
  'syntax-error',
  'unknown-import',
  'unknown-hook-point',
  'missing-parentheses',
  'duplicate-modify-hook',
  'sync-handler',
  'wrong-arity',
  'payload-annotation',
  'return-annotation',
  'unsupported-control-signal',
  'invalid-timeout',
];
const WARNINGS = [
  'readonly-field-write',
  'model-settings-key',
  'observe-mutation',
  'missing-return',
  'blocking-call',
  'model-construct-return',
];
const INFORMATION = ['not-wired'];
const MANTLE_CODES = [...ERRORS, ...WARNINGS, ...INFORMATION];
const mantleRules = () => RULES.filter((r) => MANTLE_CODES.includes(r.code));

test('Mantle rules: one file per code, registered, with the DESIGN.md severity', () => {
  const files = readdirSync(join(__dirname, '../../../runtime/rules'))
    .filter((f) => f.endsWith('.ts'))
    .map((f) => f.slice(0, -3));
  for (const code of MANTLE_CODES) assert.ok(files.includes(code), `runtime/rules/${code}.ts`);
  assert.deepEqual(
    mantleRules()
      .map((r) => r.code)
      .sort(),
    [...MANTLE_CODES].sort(),
  );
  for (const r of mantleRules()) {
    const expected = ERRORS.includes(r.code)
      ? 'error'
      : WARNINGS.includes(r.code)
        ? 'warning'
        : 'information';
    assert.equal(r.severity, expected, r.code);
    assert.equal(r.engine, r.code === 'syntax-error' ? 'python' : 'mantle', r.code);
  }
});

test('Mantle rules: docs are written (what, why, a quoted spec sentence with its source, fix)', () => {
  for (const r of mantleRules()) {
    assert.ok(r.title.length > 10 && !/TODO/.test(r.title), `${r.code} title`);
    for (const key of ['what', 'why', 'fix'] as const)
      assert.ok(r.docs[key].length > 40 && !/TODO/.test(r.docs[key]), `${r.code} docs.${key}`);
    assert.match(r.docs.spec, /(spec\/mantle-hooks\.md|DESIGN\.md)/, `${r.code} docs.spec names its source`);
    assert.match(r.docs.spec, /"[^"]{10,}"/, `${r.code} docs.spec quotes a sentence`);
  }
});

test('Mantle rules: never throw on half-typed code (every prefix of the spec examples) or hostile input', async () => {
  await initParser();
  const hostile = [
    '',
    '@',
    '@on_turn_started(\n',
    'from rasa.mantle.hooks import (\n',
    'from rasa.mantle.hooks import *\n@on_tool_call()\nasync def f(): ...\n',
    'import rasa.mantle.hooks as mh\n@mh.()\nasync def f(x: ) -> :\n  raise mh.\n',
    py`
      from rasa.mantle.hooks import modify_model_request as m
      @m(timeout_ms=1e309, **opts)
      @m(*a)
      async def f(r: "", /, *, k) -> "":
          return r.model_copy(update={**x, 1: 2, "model_settings": {**y, "stop": [*z]}})
    `,
    '\u{1F600} = 1\n@on_turn_started()\nasync def f(p: "\u00e9"): raise\n',
  ];
  const sources = [...hostile];
  for (const ex of SPEC_EXAMPLES)
    for (let i = 0; i < ex.source.length; i += 37) sources.push(ex.source.slice(0, i));
  for (const source of sources) {
    const module = parseModule(source, 'hooks.py');
    for (const rule of mantleRules()) {
      assert.doesNotThrow(
        () => rule.check({ module, text: source, agentModules: [module, module], isMantleModule: true }),
        `${rule.code} on ${JSON.stringify(source.slice(-60))}`,
      );
    }
  }
});
