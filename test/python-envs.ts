// The interpreters tests run Python with, decided by importing (#38): the tests' own environments
// (.test-env/, made by scripts/test-env.mjs from test/python-env/*.txt before `npm test` runs),
// then the machine's python3. A test asks for what it needs and gets an interpreter that really
// imports it, or a skip reason naming what is missing and the command that installs it.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

export type TestEnvName = 'tools' | 'engines' | 'cayu-0.3';
export type PythonFor = { python: string; skip?: undefined } | { python?: undefined; skip: string };

/** The repository: the first folder up from here holding test/python-env (also from a bundle in dist/). */
function repoRoot(): string {
  for (let dir = __dirname; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'test', 'python-env'))) return dir;
    if (dirname(dir) === dir) return join(__dirname, '..');
  }
}
const root = repoRoot();
const home = process.env.HOOKSMITH_TEST_ENV_DIR ?? join(root, '.test-env');

interface EnvsFile {
  envs: Record<string, { python?: string; reason?: string }>;
}

function envsFile(): EnvsFile | undefined {
  const file = join(home, 'envs.json');
  if (!existsSync(file)) return undefined;
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as EnvsFile;
  } catch {
    return undefined;
  }
}

/** The interpreter of one test environment, or why there is none. */
export function testEnv(name: TestEnvName): { python?: string; reason: string } {
  const entry = envsFile()?.envs[name];
  if (!entry) return { reason: `the '${name}' test environment was not made (npm run test:env)` };
  if (entry.python && existsSync(entry.python)) return { python: entry.python, reason: '' };
  return {
    reason: `the '${name}' test environment is missing: ${entry.reason ?? 'not made'} (npm run test:env)`,
  };
}

const probed = new Map<string, boolean>();

type Version = { dist: string; is: string };

/** A script that exits 0 when every module imports (and the distribution is at `version`). */
function probeScript(modules: string[], version?: Version): string {
  const check = version
    ? `import importlib.metadata as m, sys; sys.exit(m.version(${JSON.stringify(version.dist)}) != ${JSON.stringify(version.is)})`
    : 'pass';
  return `import ${modules.join(', ')}\n${check}`;
}

/** Whether `python` imports every module (and, where given, has the distribution at that version). */
export function imports(python: string, modules: string[], version?: Version): boolean {
  const code = probeScript(modules, version);
  const key = `${python}\0${code}`;
  if (!probed.has(key)) {
    const r = spawnSync(python, ['-c', code], { stdio: 'ignore', timeout: 60_000 });
    probed.set(key, r.status === 0);
  }
  return probed.get(key)!;
}

/**
 * An interpreter that imports `modules`: the named test environments first (in order), then
 * python3 unless `onlyEnvs`. `version` pins a distribution (e.g. cayu 0.3.0).
 */
export function pythonWith(
  modules: string[],
  options: { envs?: TestEnvName[]; onlyEnvs?: boolean; version?: Version } = {},
): PythonFor {
  const envs = options.envs ?? ['tools', 'engines'];
  const reasons: string[] = [];
  for (const name of envs) {
    const env = testEnv(name);
    if (env.python && imports(env.python, modules, options.version)) return { python: env.python };
    reasons.push(env.python ? `${env.python} does not import ${modules.join(', ')}` : env.reason);
  }
  if (!options.onlyEnvs && imports('python3', modules, options.version)) return { python: 'python3' };
  const what = options.version ? `${options.version.dist} ${options.version.is}` : modules.join(', ');
  return { skip: `no interpreter with ${what}: ${reasons.join('; ')}` };
}

/** node:test's options for a test that needs `found`: skip with its reason when absent. */
export const skipUnless = (found: PythonFor): { skip?: string } => (found.skip ? { skip: found.skip } : {});

/**
 * The site-packages folder of a test environment, for tests that put an engine on PYTHONPATH of
 * the plain python3 (as a user's PYTHONPATH would): given only when python3 with it really imports
 * `modules` (at `version`). The environments are made from python3, so their packages fit it.
 */
export function sitePackagesWith(
  name: TestEnvName,
  modules: string[],
  version?: Version,
): { path: string; skip?: undefined } | { path?: undefined; skip: string } {
  const env = testEnv(name);
  if (!env.python) return { skip: env.reason };
  const r = spawnSync(env.python, ['-c', 'import site; print(site.getsitepackages()[0])'], {
    encoding: 'utf8',
  });
  const path = r.stdout?.trim();
  if (r.status !== 0 || !path) return { skip: `${env.python} does not say where its packages are` };
  const ok = spawnSync('python3', ['-c', probeScript(modules, version)], {
    stdio: 'ignore',
    timeout: 60_000,
    env: { ...process.env, PYTHONPATH: path },
  });
  if (ok.status === 0) return { path };
  return {
    skip: `python3 with ${path} on PYTHONPATH does not import ${modules.join(', ')}${version ? ` ${version.is}` : ''}`,
  };
}
