// Every Mantle rule over the spec's own working examples: the engine accepts them, so no
// error or warning may appear.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { initParser } from '../../../runtime/python/parser';
import { RULES } from '../../../runtime/rules';
import { parseModule } from './helpers';
import { SPEC_EXAMPLES } from './spec-examples';

test('spec examples: no Mantle rule reports an error or warning', async () => {
  await initParser();
  assert.ok(SPEC_EXAMPLES.length >= 8);
  const found: string[] = [];
  for (const ex of SPEC_EXAMPLES) {
    const module = parseModule(ex.source, ex.path);
    for (const rule of RULES.filter((r) => r.engine !== 'cayu')) {
      for (const d of rule.check({ module, text: ex.source, agentModules: [module], isMantleModule: true })) {
        found.push(`${ex.path}:${d.range.start.line + 1} ${d.severity} ${d.code} ${d.message}`);
      }
    }
  }
  const notInfo = found.filter((f) => !/ information not-wired /.test(f));
  assert.deepEqual(notInfo, []);
  // rasa-pro 3.21 invokes modify_incoming_message and modify_outgoing_text too (engine-lines/rasa-pro-3.21.json).
  assert.deepEqual(found, []);
});
