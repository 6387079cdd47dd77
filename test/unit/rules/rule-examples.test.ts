// Every rule's documented example (docs.example, shown on its page docs/rules/<code>.md) is true:
// the module it reports gets the rule's diagnostic, and the module it suggests instead gets no
// error or warning at all, through the same path as the editor (rules, then suppressions).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { diagnoseModule } from '../../../runtime/analysis/diagnose';
import { POINT_IDS } from '../../../runtime/catalogue';
import { parseModule } from '../../../runtime/analysis/module';
import { initParser } from '../../../runtime/python/parser';
import { RULES } from '../../../runtime/rules';
import type { RuleEnvironment } from '../../../runtime/rules/rule';

/** An interpreter with the engines and httpx installed (import-error's examples need one). */
const INSTALLED = new Set(['rasa', 'cayu', 'httpx', 'asyncio', 'json', 'logging', 'time']);
const ENVIRONMENT: RuleEnvironment = {
  python: 'python3',
  resolves: (module) => INSTALLED.has(module.split('.')[0]),
};

/**
 * not-wired reports only what the wiring leaves out: rasa-pro 3.21 invokes every point (#39), so its
 * example is judged with the hooksmith.mantle.wiredPoints setting leaving outgoing_text out.
 */
const WIRING_WITHOUT_OUTGOING: RuleEnvironment = {
  ...ENVIRONMENT,
  wiredPoints: new Set(POINT_IDS.filter((id) => id !== 'outgoing_text')),
};

function diagnose(text: string, file: string, environment = ENVIRONMENT) {
  const module = parseModule(text, file);
  const isMantleModule = file === 'hooks.py' || file.startsWith('hooks/');
  return diagnoseModule({
    path: file,
    text,
    module,
    agentModules: [module],
    isMantleModule,
    options: { environment },
  }).diagnostics;
}

const where = (ds: ReturnType<typeof diagnose>) =>
  ds.map((d) => `${d.range.start.line + 1}: ${d.severity} ${d.code} ${d.message}`).join('\n');

test('every rule has an example: the code it reports and the code to write instead', () => {
  const missing = RULES.filter((r) => !r.docs.example).map((r) => r.code);
  assert.deepEqual(missing, [], 'add docs.example to these rules');
});

for (const rule of RULES) {
  const ex = rule.docs.example;
  if (!ex) continue;
  test(`${rule.code}: its example is reported, its "use instead" is clean`, async () => {
    await initParser();
    const file = ex.file ?? 'hooks.py';
    const env = rule.code === 'not-wired' ? WIRING_WITHOUT_OUTGOING : ENVIRONMENT;
    const bad = diagnose(ex.bad, file, env);
    assert.ok(
      bad.some((d) => d.code === rule.code),
      `the example does not get ${rule.code}:\n${where(bad)}`,
    );
    const good = diagnose(ex.good, file, env).filter(
      (d) => d.severity === 'error' || d.severity === 'warning',
    );
    assert.deepEqual(where(good), '', `"use instead" of ${rule.code} is not clean`);
    assert.ok(!diagnose(ex.good, file, env).some((d) => d.code === rule.code));
  });
}
