// `npm run bench`: prints the numbers the issues set targets for. Each section is
// independent; one that fails prints its error and the others still run.
// `npm run bench` runs this bundled (dist/bench/run.js, see scripts/build.mjs --bench): the
// numbers are those of the shipped code.
import * as fs from 'node:fs';
import * as path from 'node:path';

type Section = { title: string; run: () => Promise<string[]> };

const SECTIONS: Section[] = [
  { title: 'Core: parse + rules', run: async () => (await import('./parse-rules')).benchParseRules() },
  { title: 'Core: linear scaling', run: async () => (await import('./scaling')).benchScaling() },
  { title: 'Core: hooksmith check', run: async () => (await import('./check-tree')).benchCheckTree() },
  { title: 'Language server start-up', run: async () => (await import('./lsp-startup')).benchStartup() },
  { title: 'Language server over stdio', run: async () => (await import('./lsp-latency')).benchLsp() },
  {
    title: 'Language server: diagnostics flood',
    run: async () => (await import('./lsp-flood')).benchFlood(),
  },
  { title: 'Python host', run: async () => (await import('./host')).benchHostLines() },
  {
    title: 'Engine: simulated turn',
    run: async () => (await import('./engine')).benchEngine(),
  },
  {
    title: 'Engine: conversation',
    run: async () => (await import('./conversation')).benchConversation(),
  },
  {
    title: 'Engine: Cayu scenario, real-engine mode vs emulation',
    run: async () => (await import('./cayu-engines')).benchCayuEngines(repoRoot()),
  },
  {
    title: 'Engine: Mantle scenario, real-engine mode (rasa-pro runner) vs emulation',
    run: async () => (await import('./mantle-engines')).benchMantleEngines(repoRoot()),
  },
  {
    title: 'Cayu 0.15: real-engine mode against the emulation (HOOKSMITH_CAYU_PYTHON)',
    run: async () => (await import('./cayu-engines')).benchCayu015(repoRoot()),
  },
  {
    title: 'Cayu 0.15: ten scenarios in one hooksmith test, real-engine mode vs emulation',
    run: async () => (await import('./cayu-engines')).benchCayuTenScenarios(repoRoot()),
  },
  {
    title: 'Hook tests: coverage on and off',
    run: async () => (await import('./coverage')).benchCoverage(repoRoot()),
  },
  {
    title: 'Hook tests: hooksmith test -j 2 vs -j 1',
    run: async () => (await import('./test-jobs')).benchTestJobs(repoRoot()),
  },
  {
    title: 'Hook tests: Testing view Run All vs hooksmith test',
    run: async () => (await import('./testing-view')).benchTestingView(repoRoot()),
  },
  {
    title: 'Hook tests: hooksmith test and fuzz',
    run: async () => (await import('./test-suite')).benchTesting(repoRoot()),
  },
];

/** The repository (bench runs bundled from dist/bench, or from source with tsx). */
function repoRoot(): string {
  for (let d = __dirname; d !== path.dirname(d); d = path.dirname(d))
    if (fs.existsSync(path.join(d, 'examples', 'clean-agent'))) return d;
  return process.cwd();
}

async function main(): Promise<void> {
  const only = process.argv.slice(2);
  for (const s of SECTIONS) {
    if (only.length && !only.some((o) => s.title.toLowerCase().includes(o.toLowerCase()))) continue;
    console.log(`\n== ${s.title}`);
    try {
      const lines = await s.run();
      for (const l of lines) console.log('   ' + l);
    } catch (err) {
      console.log(`   failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
    }
  }
}

main().then(() => process.exit(0));
