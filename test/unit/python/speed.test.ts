// Speed of parse + buildModel on generated hook modules (the budget for parse + rules:
// ≤ 2 ms per 160-line module, ≤ 20 ms per 3,000-line module, median). Bounds here are loose
// (shared 2-core machines); the measured medians are printed for the report.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildModel, initParser, parse } from '../../../runtime/python';

function hookBlock(i: number): string {
  return [
    `@modify_tool_call(timeout_ms=${200 + i})`,
    `async def guard_${i}(payload: ToolCallPayload) -> ToolCallPayload | None:`,
    `    """Checks tool call ${i}."""`,
    `    if payload.tool_name == "search_${i}":`,
    `        raise RetryModel("use the other tool")`,
    `    try:`,
    `        value = await client.fetch(payload.arguments.get("q"), timeout=2)`,
    `    except ValueError as exc:`,
    `        logger.warning("bad %s", exc)`,
    `        raise`,
    `    payload.arguments["checked"] = True`,
    `    return payload.model_copy(update={"arguments": {"q": value}, "model_settings": {"temperature": 0.2}})`,
    ``,
    ``,
  ].join('\n');
}

function module(lines: number): string {
  const head = [
    'from __future__ import annotations',
    'import logging',
    'import rasa.mantle.hooks as mh',
    'from rasa.mantle.hooks import (',
    '    modify_tool_call,',
    '    RetryModel,',
    '    ToolCallPayload,',
    ')',
    'logger = logging.getLogger(__name__)',
    '',
    '',
  ].join('\n');
  let src = head;
  for (let i = 0; src.split('\n').length < lines; i++) src += hookBlock(i);
  return src;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] as number;
}

function measure(src: string, runs: number): number {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    const tree = parse(src);
    buildModel(tree, src, 'hooks.py');
    times.push(performance.now() - t0);
    tree.delete();
  }
  return median(times);
}

test('parse + buildModel: 160-line and 3,000-line modules', async () => {
  await initParser();
  const small = module(160);
  const large = module(3000);
  measure(small, 20); // warm-up
  const s = measure(small, 50);
  const l = measure(large, 15);
  const tree = parse(large);
  const m = buildModel(tree, large, 'hooks.py');
  tree.delete();
  assert.ok(m.functions.length > 200);
  assert.equal(m.syntaxErrors.length, 0);
  process.stdout.write(
    `# parse+model median: ${small.split('\n').length} lines ${s.toFixed(2)} ms, ${large.split('\n').length} lines ${l.toFixed(2)} ms\n`,
  );
  // Loose absolute bounds (loaded CI machines), plus linear scaling: no quadratic walks.
  assert.ok(s < 100, `160 lines: ${s} ms`);
  assert.ok(l < 2000, `3,000 lines: ${l} ms`);
  assert.ok(l / s < (3000 / 160) * 4, `3,000 lines take ${(l / s).toFixed(1)}x the 160-line time`);
});
