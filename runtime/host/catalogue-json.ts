// Generates runtime/host/python/catalogue.json: the catalogue facts the Python shims need
// (decorators, payload fields and defaults, Cayu phases and decisions), so the shims read
// the one source of truth instead of spelling names again. A test proves the file is current.
// Regenerate: node --import tsx runtime/host/catalogue-json.ts
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  CAYU_CONTEXT_METHODS,
  CAYU_DECISIONS,
  CAYU_PHASES,
  CAYU_TOOL_RESULT_FIELDS,
  CONTROL_SIGNALS,
  DEFAULT_TIMEOUT_MS,
  HOOK_DECORATORS,
  IDENTITY_FIELDS,
  MANTLE_LINES,
  MANTLE_MODULE,
  PAYLOAD_TYPES,
  type PayloadField,
  CAYU_LINES,
} from '../catalogue';

export const CATALOGUE_JSON_PATH = join(__dirname, 'python', 'catalogue.json');

interface FieldJson {
  name: string;
  pythonType: string;
  mutability: string;
  /** Present when the field has a default (taken from the zod schema). */
  default?: unknown;
  required: boolean;
}

function fieldJson(f: PayloadField): FieldJson {
  const parsed = f.schema.safeParse(undefined);
  return parsed.success
    ? {
        name: f.name,
        pythonType: f.pythonType,
        mutability: f.mutability,
        default: parsed.data ?? null,
        required: false,
      }
    : { name: f.name, pythonType: f.pythonType, mutability: f.mutability, required: true };
}

export function buildHostCatalogue(): unknown {
  return {
    generatedBy: 'runtime/host/catalogue-json.ts',
    mantle: {
      module: MANTLE_MODULE,
      controlSignals: CONTROL_SIGNALS,
      defaultTimeoutMs: DEFAULT_TIMEOUT_MS,
      decorators: HOOK_DECORATORS.map((d) => ({
        name: d.name,
        point: d.point.id,
        lane: d.lane,
        payloadType: d.point.payloadType,
      })),
      payloads: PAYLOAD_TYPES.map((p) => ({
        name: p.name,
        doc: p.doc,
        fields: [...p.fields, ...IDENTITY_FIELDS].map(fieldJson),
      })),
      // The names each engine line spells differently; the host serves the one in HOOKSMITH_MANTLE_LINE.
      lines: Object.fromEntries(MANTLE_LINES.map((l) => [l.id, { points: l.points, payloads: l.payloads }])),
    },
    cayu: {
      phases: CAYU_PHASES.map((p) => ({ id: p.id, context: p.context, decision: p.decision ?? null })),
      decisions: CAYU_DECISIONS.map((d) => ({
        name: d.name,
        phase: d.phase,
        actions: d.actions.map((a) => ({ action: a.action, companion: a.companion ?? null })),
        fields: Object.keys(d.fields),
      })),
      contextMethods: CAYU_CONTEXT_METHODS,
      toolResultFields: Object.keys(CAYU_TOOL_RESULT_FIELDS),
      // Each line's import layout; the host's shim serves the one in HOOKSMITH_CAYU_LINE (none: both).
      lines: Object.fromEntries(
        CAYU_LINES.map((l) => [
          l.id,
          {
            hooks: l.hooksModule,
            hookModules: l.hookModules,
            partialHookModules: l.partialHookModules ?? {},
            toolResult: l.toolResultModule,
            toolResultModules: l.toolResultModules,
            events: l.eventsModule,
            eventsModules: l.eventsModules,
          },
        ]),
      ),
    },
  };
}

export function hostCatalogueText(): string {
  return JSON.stringify(buildHostCatalogue(), null, 2) + '\n';
}

if (require.main === module) {
  writeFileSync(CATALOGUE_JSON_PATH, hostCatalogueText());
  process.stdout.write(`wrote ${CATALOGUE_JSON_PATH}\n`);
}
