// Settings pulled per document (`workspace/configuration`, section `hooksmith`), cleaned with
// the zod schema of runtime/lsp/shared.ts. Bad client config is logged and ignored: each
// field that fails validation falls back to its default, the rest is kept.
import {
  DEFAULT_SETTINGS,
  SETTINGS_SECTION,
  settingsSchema,
  type HooksmithSettings,
} from '../runtime/lsp/shared';
import type { AnalysisOptions } from '../runtime/analysis/module';

export function cleanSettings(raw: unknown, log: (msg: string) => void): HooksmithSettings {
  if (raw === undefined || raw === null) return DEFAULT_SETTINGS;
  const whole = settingsSchema.safeParse(raw);
  if (whole.success) return whole.data;
  if (typeof raw !== 'object' || Array.isArray(raw)) {
    log(`[hooksmith] ignoring settings: expected an object, got ${JSON.stringify(raw)}`);
    return DEFAULT_SETTINGS;
  }
  // Keep every field that is valid on its own; log and default the others.
  const out: Record<string, unknown> = {};
  const shape = settingsSchema.shape;
  for (const key of Object.keys(shape) as (keyof typeof shape)[]) {
    const value = (raw as Record<string, unknown>)[key];
    const one = shape[key].safeParse(value);
    if (one.success) out[key] = one.data;
    else
      log(
        `[hooksmith] ignoring setting hooksmith.${key}: ${one.error.issues.map((i) => i.message).join('; ')}`,
      );
  }
  return settingsSchema.parse(out);
}

export function analysisOptions(s: HooksmithSettings, logger: (msg: string) => void): AnalysisOptions {
  return { rules: s.rules, severity: s.severity, logger };
}

/** Per-document settings cache; cleared on workspace/didChangeConfiguration. */
export class SettingsCache {
  private byUri = new Map<string, Promise<HooksmithSettings>>();
  /** The settings already read, for a caller that cannot wait (what goes out with a publication). */
  private resolved = new Map<string, HooksmithSettings>();

  constructor(
    private readonly fetch: (uri: string | undefined) => Promise<unknown>,
    private readonly log: (msg: string) => void,
  ) {}

  get(uri: string | undefined): Promise<HooksmithSettings> {
    const key = uri ?? '';
    let p = this.byUri.get(key);
    if (!p) {
      p = this.fetch(uri).then(
        (raw) => {
          const clean = cleanSettings(raw, this.log);
          if (this.byUri.get(key) === p) this.resolved.set(key, clean);
          return clean;
        },
        (err: unknown) => {
          this.log(
            `[hooksmith] could not read settings: ${err instanceof Error ? err.message : String(err)}`,
          );
          return DEFAULT_SETTINGS;
        },
      );
      this.byUri.set(key, p);
    }
    return p;
  }

  /** The settings of `uri` if they have been read since the last clear. */
  peek(uri: string | undefined): HooksmithSettings | undefined {
    return this.resolved.get(uri ?? '');
  }

  clear(): void {
    this.byUri.clear();
    this.resolved.clear();
  }
}

/** The `hooksmith` section of settings a client gave (`{hooksmith: {…}}` or the section itself). */
export function settingsSection(given: unknown): unknown {
  if (typeof given !== 'object' || given === null) return undefined;
  const section = (given as Record<string, unknown>)[SETTINGS_SECTION];
  return section !== undefined ? section : given;
}
