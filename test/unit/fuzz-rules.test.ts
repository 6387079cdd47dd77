// Property: any mutation of real hook modules goes through parse + every rule without
// throwing, and every diagnostic (and fix edit) has a range inside the text.
import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { analyseModule } from '../../runtime/analysis';
import { parseModule } from '../../runtime/analysis';
import { initParser } from '../../runtime/python';
import type { Range } from '../../runtime/python/model';

const EXAMPLES = join(__dirname, '..', '..', 'examples');

function pythonFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    return statSync(p).isDirectory() ? pythonFiles(p) : n.endsWith('.py') ? [p] : [];
  });
}

type Op =
  | { kind: 'delete'; at: number; len: number }
  | { kind: 'insert'; at: number; text: string }
  | { kind: 'dupLine'; line: number }
  | { kind: 'dropLine'; line: number }
  | { kind: 'swapLines'; a: number; b: number };

const noise = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 8 }),
  fc.constantFrom(
    '\0',
    '\r',
    '\r\n',
    '\t',
    '(',
    ')',
    '[',
    '"',
    "'",
    '"""',
    ':',
    '\\',
    '    ',
    'async ',
    'def ',
    '@',
    '# ',
    '\u2028',
    '\ud800',
    '😀',
    'é',
  ),
);
const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ kind: fc.constant('delete' as const), at: fc.nat(), len: fc.integer({ min: 1, max: 40 }) }),
  fc.record({ kind: fc.constant('insert' as const), at: fc.nat(), text: noise }),
  fc.record({ kind: fc.constant('dupLine' as const), line: fc.nat() }),
  fc.record({ kind: fc.constant('dropLine' as const), line: fc.nat() }),
  fc.record({ kind: fc.constant('swapLines' as const), a: fc.nat(), b: fc.nat() }),
);

function apply(text: string, o: Op): string {
  const lines = text.split('\n');
  switch (o.kind) {
    case 'delete': {
      const at = o.at % (text.length + 1);
      return text.slice(0, at) + text.slice(at + o.len);
    }
    case 'insert': {
      const at = o.at % (text.length + 1);
      return text.slice(0, at) + o.text + text.slice(at);
    }
    case 'dupLine': {
      const i = o.line % lines.length;
      lines.splice(i, 0, lines[i]!);
      return lines.join('\n');
    }
    case 'dropLine':
      lines.splice(o.line % lines.length, 1);
      return lines.join('\n');
    case 'swapLines': {
      const a = o.a % lines.length;
      const b = o.b % lines.length;
      [lines[a], lines[b]] = [lines[b]!, lines[a]!];
      return lines.join('\n');
    }
  }
}

/** Lines as LSP counts them (\n, \r\n and \r all end a line). */
function lspLines(text: string): string[] {
  return text.split(/\r\n|\r|\n/);
}

function assertInside(range: Range, lines: string[], what: string): void {
  const { start, end } = range;
  for (const p of [start, end]) {
    assert.ok(Number.isInteger(p.line) && Number.isInteger(p.character), `${what}: non-integer position`);
    assert.ok(p.line >= 0 && p.line < lines.length, `${what}: line ${p.line} outside 0..${lines.length - 1}`);
    assert.ok(
      p.character >= 0 && p.character <= lines[p.line]!.length,
      `${what}: character ${p.character} outside line ${p.line} (${lines[p.line]!.length})`,
    );
  }
  assert.ok(
    start.line < end.line || (start.line === end.line && start.character <= end.character),
    `${what}: start after end`,
  );
}

function diagnoseText(text: string, path = 'hooks/x.py') {
  const module = parseModule(text, path);
  return analyseModule({ path, text, module, agentModules: [module], isMantleModule: true });
}

describe('fuzz: mutated hook modules through parse + rules', () => {
  const sources = pythonFiles(EXAMPLES).map((p) => ({ path: p, text: readFileSync(p, 'utf8') }));
  before(async () => {
    await initParser();
  });

  // A fixed seed keeps CI reproducible; HOOKSMITH_FUZZ_SEED=<n> explores other inputs.
  it('never throws and keeps every range inside the text (2,000 runs)', () => {
    assert.ok(sources.length >= 10);
    const logs: string[] = [];
    fc.assert(
      fc.property(
        fc.nat({ max: sources.length - 1 }),
        fc.array(op, { minLength: 1, maxLength: 6 }),
        (i, ops) => {
          const src = sources[i]!;
          const text = ops.reduce(apply, src.text);
          const module = parseModule(text, src.path);
          const found = analyseModule({
            path: src.path,
            text,
            module,
            agentModules: [module],
            isMantleModule: !src.path.endsWith('runtime_hooks.py'),
            options: { logger: (m) => logs.push(m) },
          });
          const lines = lspLines(text);
          for (const d of found) {
            assertInside(d.range, lines, `${d.code} "${d.message}"`);
            for (const f of d.fixes ?? []) {
              for (const e of f.edits) {
                assertInside(e.range, lines, `${d.code} fix "${f.title}"`);
              }
            }
          }
        },
      ),
      { numRuns: 2000, seed: Number(process.env.HOOKSMITH_FUZZ_SEED ?? 20261130) },
    );
    // A rule that throws is caught by analyseModule; the property demands none did.
    assert.deepEqual(logs, []);
  });

  // Regressions the fuzzer found (CRLF, lone CR, a fix past the end of the file), now fixed.
  it('CRLF: a range ending in a comment stops before the \\r (LSP lines exclude it)', () => {
    const text =
      'from rasa.mantle.hooks import TurnStartedPayload, on_turn_started\r\n\r\n\r\n@on_turn_started  #\r\nasync def f(payload: TurnStartedPayload) -> None:\r\n    return None\r\n';
    const lines = lspLines(text);
    const ds = diagnoseText(text);
    assert.ok(ds.length > 0);
    for (const d of ds) assertInside(d.range, lines, d.code);
  });

  it('lone CR: positions follow LSP lines (\\r ends a line for LSP and CPython)', () => {
    const text =
      '\rfrom rasa.mantle.hooks import TurnStartedPayload, on_turn_started\r\r@on_turn_started()\rdef f(p: TurnStartedPayload) -> None:\r    return None\r';
    const lines = lspLines(text);
    const ds = diagnoseText(text);
    assert.ok(ds.some((d) => d.code === 'sync-handler'));
    for (const d of ds) assertInside(d.range, lines, d.code);
    const sync = ds.find((d) => d.code === 'sync-handler')!;
    assert.equal(
      lines[sync.range.start.line]!.slice(sync.range.start.character, sync.range.end.character),
      'f',
    );
  });

  it('a fix deleting the last line of a file without a final newline stays inside the text', () => {
    const text =
      'from rasa.mantle.hooks import RetryModel, ToolResultPayload, modify_tool_result\n\n\n@modify_tool_result()\nasync def f(result: ToolResultPayload) -> ToolResultPayload:\n    if result.is_error:\n        return result\n    raise RetryModel("x")  # no';
    const lines = lspLines(text);
    const ds = diagnoseText(text);
    assert.ok(ds.some((d) => d.fixes?.length));
    for (const d of ds)
      for (const f of d.fixes ?? []) for (const e of f.edits) assertInside(e.range, lines, `${d.code} fix`);
  });
});
