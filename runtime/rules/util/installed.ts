// The installed engine, where rules follow it instead of the bundled catalogue (frozen at
// rasa-pro 3.21): which points are invoked, and which names rasa.mantle.hooks exports.
import { allFields, isMantleExport, MANTLE_EXPORTS, PAYLOAD_TYPES, type MantlePoint } from '../../catalogue';
import { readable } from '../../cpython/environment';
import type { RuleEnvironment } from '../rule';

/** The release the catalogue describes. */
export const CATALOGUE_RASA_PRO = '3.21';

function newerThanCatalogue(version: string): boolean {
  const [major = 0, minor = 0] = version.split('.').map((n) => parseInt(n, 10));
  const [cMajor, cMinor] = CATALOGUE_RASA_PRO.split('.').map((n) => parseInt(n, 10)) as [number, number];
  return major > cMajor || (major === cMajor && minor > cMinor);
}

/**
 * Whether the engine invokes a point, and on whose word. The setting wins; else the installed
 * rasa-pro: the catalogue's release and older as catalogued, a newer release invokes every
 * point (its public hooks page says incoming/outgoing text are now invoked); else the catalogue.
 */
export function pointWired(
  point: MantlePoint,
  env: RuleEnvironment | undefined,
): { wired: boolean; by: string } {
  if (env?.wiredPoints)
    return { wired: env.wiredPoints.has(point.id), by: 'the hooksmith.mantle.wiredPoints setting' };
  const version = env?.engine?.rasaPro;
  if (version && newerThanCatalogue(version)) return { wired: true, by: `rasa-pro ${version}` };
  return { wired: point.wired, by: `rasa-pro ${version ?? CATALOGUE_RASA_PRO}` };
}

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
