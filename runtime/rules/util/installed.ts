// The installed engine, where rules follow it instead of the bundled catalogue: which names
// rasa.mantle.hooks exports, and how it differs. Which points are invoked: runtime/catalogue/wiring.ts.
import { allFields, isMantleExport, MANTLE_EXPORTS, PAYLOAD_TYPES } from '../../catalogue';
import { readable } from '../../cpython/environment';
import { CATALOGUE_RASA_PRO } from '../../catalogue/wiring';
import type { RuleEnvironment } from '../rule';

/** Whether rasa.mantle.hooks exports `name`: the installed module when it was read, else the catalogue. */
export function mantleExports(name: string, env: RuleEnvironment | undefined): boolean {
  const installed = readable(env?.engine?.mantle ?? null);
  return installed ? installed.names.includes(name) : isMantleExport(name);
}

/** How the installed rasa.mantle.hooks differs from the bundled catalogue, one line each (none: same). */
export function engineDifferences(env: RuleEnvironment | undefined): string[] {
  const engine = env?.engine;
  const out: string[] = [];
  const mantle = engine?.mantle;
  if (mantle && 'error' in mantle)
    out.push(`rasa.mantle.hooks is installed but failed to import: ${mantle.error}`);
  const installed = readable(mantle ?? null);
  if (!installed) return out;
  const version = engine?.rasaPro ? `rasa-pro ${engine.rasaPro}` : 'the installed rasa.mantle.hooks';
  const names = new Set(installed.names);
  const extra = installed.names.filter((n) => !isMantleExport(n));
  const missing = MANTLE_EXPORTS.filter((n) => !names.has(n));
  if (extra.length)
    out.push(
      `${version} exports names the catalogue (rasa-pro ${CATALOGUE_RASA_PRO}) lacks: ${extra.join(', ')}`,
    );
  if (missing.length) out.push(`${version} lacks names the catalogue has: ${missing.join(', ')}`);
  for (const type of PAYLOAD_TYPES) {
    const fields = installed.payloads[type.name];
    if (!fields) continue;
    const known = allFields(type).map((f) => f.name);
    const added = fields.filter((f) => !known.includes(f));
    const gone = known.filter((f) => !fields.includes(f));
    if (added.length || gone.length)
      out.push(
        `${version}: ${type.name} fields differ from the catalogue${added.length ? ` (added: ${added.join(', ')})` : ''}${gone.length ? ` (missing: ${gone.join(', ')})` : ''}`,
      );
  }
  return out;
}
