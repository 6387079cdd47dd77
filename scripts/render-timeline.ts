// Simulates a scenario of examples/clean-agent and writes the timeline webview's HTML as a
// standalone file (to look at it in a browser or screenshot it with headless Chromium).
// Usage: npx tsx scripts/render-timeline.ts [scenario] [out.html]
import * as fs from 'node:fs';
import * as path from 'node:path';
import { createHookRunner } from '../runtime/engine/runner';
import { makeNonce } from '../runtime/ui/html-kit';
import { diffPayload } from '../runtime/ui/payload-diff';
import { renderTimelineHtml } from '../runtime/ui/timeline-html';

async function main(): Promise<void> {
  const scenario = path.resolve(
    process.argv[2] ?? path.join(__dirname, '..', 'examples', 'clean-agent', 'order-pizza.scenario.yaml'),
  );
  const out = path.resolve(process.argv[3] ?? 'test-output/timeline.html');
  const runner = createHookRunner({ log: (line) => process.stderr.write(`[host] ${line}\n`) });
  try {
    const result = await runner.simulate(scenario);
    // Open the first row where a field changed (not just added) and every signal, so a screenshot shows details.
    const changed = result.events.find(
      (e) => e.lane === 'modify' && e.after != null && diffPayload(e.before, e.after, e.notes).changed > 0,
    );
    const expanded = [
      ...(changed ? [changed.seq] : []),
      ...result.events.filter((e) => e.outcome && e.outcome !== 'returned').map((e) => e.seq),
    ];
    fs.mkdirSync(path.dirname(out), { recursive: true });
    fs.writeFileSync(
      out,
      renderTimelineHtml(result, { nonce: makeNonce(), cspSource: "'self'", rerun: true, expanded }),
    );
    process.stdout.write(
      `${out}: ${result.events.length} events, ${result.transcript.length} transcript entries\n`,
    );
  } finally {
    await runner.dispose();
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
  process.exitCode = 1;
});
