// Writes the point list of package.json's hooksmith.mantle.wiredPoints setting (its items' enum,
// which gives completion and validation in settings.json) and the hooksmith.mantle.apiLine lines
// from the catalogue:
// node --import tsx scripts/gen-point-enum.ts (part of `npm run gen`; a test fails while stale).
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { MANTLE_LINE_IDS, POINT_IDS } from '../runtime/catalogue';

export const MANIFEST = join(__dirname, '..', 'package.json');
const SETTING = 'hooksmith.mantle.wiredPoints';
const LINE_SETTING = 'hooksmith.mantle.apiLine';

/** package.json's text with the setting's enum set to `points` (the catalogue's, in its order). */
export function manifestWithPointEnum(text: string, points: readonly string[] = POINT_IDS): string {
  const pkg = JSON.parse(text) as {
    contributes: {
      configuration: { properties: Record<string, { items?: { enum?: unknown }; enum?: unknown }> };
    };
  };
  const setting = pkg.contributes.configuration.properties[SETTING];
  if (!setting?.items) throw new Error(`package.json has no setting ${SETTING} with items`);
  setting.items.enum = [...points];
  const line = pkg.contributes.configuration.properties[LINE_SETTING];
  if (!line) throw new Error(`package.json has no setting ${LINE_SETTING}`);
  line.enum = [...MANTLE_LINE_IDS, null];
  return JSON.stringify(pkg, null, 2) + '\n';
}

if (require.main === module) {
  writeFileSync(MANIFEST, manifestWithPointEnum(readFileSync(MANIFEST, 'utf8')));
  console.log(`[gen-point-enum] ${POINT_IDS.length} points → package.json (${SETTING})`);
}
