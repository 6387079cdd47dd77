// `npm run bench`: prints the numbers the issues set targets for. Each section is
// independent; one that fails prints its error and the others still run.
import { existsSync } from 'node:fs';
import { join } from 'node:path';

type Section = { title: string; module: string; fn: string };

const SECTIONS: Section[] = [
  { title: 'Core: parse + rules', module: './parse-rules', fn: 'benchParseRules' },
  { title: 'Core: hooksmith check', module: './check-tree', fn: 'benchCheckTree' },
  { title: 'Language server over stdio', module: './lsp-latency', fn: 'benchLsp' },
  { title: 'Python host', module: './host', fn: 'benchHostLines' },
  { title: 'Engine: simulated turn', module: '../runtime/engine/bench-engine', fn: 'benchEngine' },
];

async function main(): Promise<void> {
  const only = process.argv.slice(2);
  for (const s of SECTIONS) {
    if (only.length && !only.some((o) => s.title.toLowerCase().includes(o.toLowerCase()))) continue;
    console.log(`\n== ${s.title}`);
    if (!existsSync(join(__dirname, s.module + '.ts'))) {
      console.log('   (not available)');
      continue;
    }
    try {
      const mod = (await import(s.module)) as Record<string, () => Promise<string[]>>;
      const lines = await mod[s.fn]();
      for (const l of lines) console.log('   ' + l);
    } catch (err) {
      console.log(`   failed: ${err instanceof Error ? err.stack ?? err.message : String(err)}`);
    }
  }
}

main().then(() => process.exit(0));
