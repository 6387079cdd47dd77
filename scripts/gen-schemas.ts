// Regenerates schemas/*.json from the zod sources: node --import tsx scripts/gen-schemas.ts
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { buildSchemas, schemaText } from '../runtime/engine/json-schemas';

const root = join(__dirname, '..', 'schemas');
const schemas = buildSchemas();
rmSync(join(root, 'payloads'), { recursive: true, force: true });
for (const [rel, schema] of Object.entries(schemas)) {
  const file = join(root, rel);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, schemaText(schema));
}
console.log(
  `[gen-schemas] ${Object.keys(schemas).length} schemas → ${root} (${readdirSync(join(root, 'payloads')).length} per-type files)`,
);
