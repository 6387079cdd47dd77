// The engine releases Hooksmith's own tests install and run against (test/python-env/*.txt pins
// them; a unit test keeps the two in step). An installed engine newer than the newest of these is
// not wrong, only unchecked: the CLI and the editor say so once, as a hint, never as an error.

export const TESTED_ENGINES = {
  'rasa-pro': ['3.21.0'],
  cayu: ['0.3.0', '0.15.0'],
} as const;

export type TestedEngine = keyof typeof TESTED_ENGINES;

/** The numeric release parts of a version ("0.15.0rc1" → [0, 15, 0]). */
function releaseOf(version: string): number[] {
  return (/^\d+(\.\d+)*/.exec(version.trim())?.[0] ?? '').split('.').filter(Boolean).map(Number);
}

/** Whether `a` is a later release than `b` (missing parts count as 0). */
export function laterRelease(a: string, b: string): boolean {
  const x = releaseOf(a);
  const y = releaseOf(b);
  for (let i = 0; i < Math.max(x.length, y.length); i++) {
    const d = (x[i] ?? 0) - (y[i] ?? 0);
    if (d) return d > 0;
  }
  return false;
}

export const newestTested = (engine: TestedEngine): string => TESTED_ENGINES[engine].at(-1)!;

/** One sentence per installed engine newer than the newest tested release (none: nothing to say). */
export function untestedEngineHints(
  installed: { rasaPro?: string | null; cayu?: string | null } | undefined,
): string[] {
  const hints: string[] = [];
  const check = (engine: TestedEngine, version: string | null | undefined) => {
    if (!version || !releaseOf(version).length || !laterRelease(version, newestTested(engine))) return;
    hints.push(
      `${engine} ${version} is installed, newer than the newest release Hooksmith is tested against (${newestTested(engine)}): its checks and results follow what ${engine} ${version} exports, but behaviour it changed may not be reflected yet.`,
    );
  };
  check('rasa-pro', installed?.rasaPro);
  check('cayu', installed?.cayu);
  return hints;
}
