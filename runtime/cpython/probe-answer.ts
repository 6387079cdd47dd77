// What environment_probe.py answers, as a schema both sides read: the probe process (env-probe.ts)
// checks each answer line with it, the environment (environment.ts) merges and remembers the answers.
// Its own file so that neither of those two imports the other's values.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';

const installedModule = z.object({
  names: z.array(z.string()),
  decorators: z.array(z.string()),
  payloads: z.record(z.string(), z.array(z.string())),
  signals: z.array(z.string()),
});
const brokenModule = z.object({ error: z.string() });

export const engineFacts = z.object({
  rasaPro: z.string().nullable(),
  cayu: z.string().nullable(),
  mantle: z.union([installedModule, brokenModule]).nullable(),
  cayuHooks: z.union([installedModule, brokenModule]).nullable(),
  /** The installed cayu's layout modules (catalogue/cayu-lines.ts) → found; absent in older answers. */
  cayuModules: z.record(z.string(), z.boolean()).nullable().optional(),
});

export const probeAnswer = z.object({
  modules: z.record(z.string(), z.boolean()),
  engine: engineFacts.nullable(),
  stamps: z.array(z.tuple([z.string(), z.string().nullable()])),
});

export type InstalledModule = z.infer<typeof installedModule>;
export type EngineFacts = z.infer<typeof engineFacts>;
export type ProbeAnswer = z.infer<typeof probeAnswer>;

export function probeScript(): string {
  const beside = join(__dirname, 'environment_probe.py');
  return existsSync(beside) ? beside : join(__dirname, '..', 'environment_probe.py');
}
