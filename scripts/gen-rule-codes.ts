// Writes the rule-code lists of package.json (the propertyNames of the hooksmith.rules and
// hooksmith.severity settings, which give completion in settings.json) from the rule registry:
// node --import tsx scripts/gen-rule-codes.ts (part of `npm run gen`; a test fails while stale).
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { RULES } from '../runtime/rules';

export const MANIFEST = join(__dirname, '..', 'package.json');
const SETTINGS = ['hooksmith.rules', 'hooksmith.severity'];

/** package.json's text with the code lists from the registry (in its order). */
export function manifestWithRuleCodes(text: string): string {
  const pkg = JSON.parse(text) as {
    contributes: { configuration: { properties: Record<string, { propertyNames?: unknown }> } };
  };
  const props = pkg.contributes.configuration.properties;
  for (const key of SETTINGS) {
    const setting = props[key];
    if (!setting) throw new Error(`package.json has no setting ${key}`);
    setting.propertyNames = { enum: RULES.map((r) => r.code) };
  }
  return JSON.stringify(pkg, null, 2) + '\n';
}

if (require.main === module) {
  writeFileSync(MANIFEST, manifestWithRuleCodes(readFileSync(MANIFEST, 'utf8')));
  console.log(`[gen-rule-codes] ${RULES.length} codes → package.json (${SETTINGS.join(', ')})`);
}
