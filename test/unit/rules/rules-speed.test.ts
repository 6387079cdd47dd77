// Speed of the rules (analyseModule) on generated modules: issue #2 budgets parse + model +
// rules per file, and the rules' share is meant to be ≤ ~1 ms for 3,000 lines. Bounds here are
// loose (shared 2-core machines); the medians are printed for the report. Each run gets a
// shallow copy of the model, so the per-model indexes the rules share are rebuilt every time.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { analyseModule } from '../../../runtime/analysis/module';
import { initParser } from '../../../runtime/python';
import type { HookModule } from '../../../runtime/python/model';
import { hookModuleSource } from '../../../bench/generate';
import { parseModule } from './helpers';

/** Runs first discarded: the JIT has not optimised the rules yet. */
const WARMUP = 20;

function medianRulesMs(text: string, model: HookModule, runs: number): number {
  const times: number[] = [];
  for (let i = 0; i < runs + WARMUP; i++) {
    const module = { ...model };
    const t0 = performance.now();
    analyseModule({ path: model.path, text, module, agentModules: [module], isMantleModule: true });
    if (i >= WARMUP) times.push(performance.now() - t0);
  }
  return times.sort((a, b) => a - b)[Math.floor(times.length / 2)]!;
}

test('rules: 160-line and 3,000-line generated hook modules', async () => {
  await initParser();
  const small = hookModuleSource(160);
  const large = hookModuleSource(3000);
  const s = medianRulesMs(small, parseModule(small, '/bench/hooks/small.py'), 200);
  const l = medianRulesMs(large, parseModule(large, '/bench/hooks/large.py'), 30);
  process.stdout.write(
    `# rules median: 160 lines ${(s * 1000).toFixed(0)} µs, 3,000 lines ${(l * 1000).toFixed(0)} µs\n`,
  );
  assert.ok(s < 5, `160 lines: ${s} ms`);
  assert.ok(l < 20, `3,000 lines: ${l} ms`);
});

test('rules: no walk over every function per call (1,500 hooks × 8 calls of local names)', async () => {
  await initParser();
  // `import time` keeps blocking-call looking at every call; each callee is a bare name the
  // module-level lookup must answer without scanning the 1,500 functions (it did: ~60 ms).
  let text = 'import time\nfrom rasa.mantle.hooks import ToolCallPayload, on_tool_call\n';
  for (let i = 0; i < 1500; i++) {
    text += `\n\n@on_tool_call()\nasync def h${i}(call: ToolCallPayload) -> None:\n`;
    for (let j = 0; j < 8; j++) text += `    step${j}(call.tool_name)\n`;
  }
  const model = parseModule(text, '/bench/hooks/many.py');
  assert.equal(model.functions.length, 1500);
  const ms = medianRulesMs(text, model, 5);
  process.stdout.write(`# rules median, 1,500 hooks × 8 calls: ${ms.toFixed(2)} ms\n`);
  assert.ok(ms < 30, `${ms} ms`);
});

test('rules: a faulty 3,000-line module (hundreds of diagnostics with import fixes) is not split per diagnostic', async () => {
  await initParser();
  // Both payload types unimported: every audit hook gets a payload-annotation diagnostic whose fix
  // adds the import. Each fix used to split the whole text several times (~250 ms here).
  const text = hookModuleSource(3000)
    .replace('    ToolCallPayload,\n', '')
    .replace('    ToolResultPayload,\n', '');
  const model = parseModule(text, '/bench/hooks/faulty.py');
  const module = { ...model };
  const found = analyseModule({
    path: model.path,
    text,
    module,
    agentModules: [module],
    isMantleModule: true,
  });
  assert.ok(found.filter((d) => d.code === 'payload-annotation').length > 100);
  const ms = medianRulesMs(text, model, 5);
  process.stdout.write(
    `# rules median, faulty 3,000 lines (${found.length} diagnostics): ${ms.toFixed(1)} ms\n`,
  );
  assert.ok(ms < 100, `${ms} ms`);
});
