// Beside the 400-line file cap (layout.test.ts): a function a newcomer cannot read at once is split,
// not excused. The functions over 80 lines today are listed in function-size.allow.json; the list can
// only shrink: a new long function fails, and a listed one that was split must leave the list. None
// may pass 150 lines, and at most MAX_OVER_50 are over 50 lines (#43; lower it as functions are split,
// never raise it).
// Sizes come from scripts/function-sizes.ts (the TypeScript parser; `node --import tsx
// scripts/function-sizes.ts` prints them).
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { allFunctionSizes, functionSizesOf } from '../../scripts/function-sizes';

const MAX_LINES = 80;
/** No function, listed or not, is longer than this (#43: the largest was 296 lines). */
const HARD_CAP = 150;
/** At most this many functions are over 50 lines (62 before #43's splits, 38 after); only goes down. */
const MAX_OVER_50 = 40;
const ALLOWED: string[] = JSON.parse(readFileSync(join(__dirname, 'function-size.allow.json'), 'utf8'));

test('functionSizesOf names declarations, methods, assigned arrows and callbacks by their enclosing function', () => {
  const src = [
    'export function outer() {',
    '  const inner = () => {',
    '    return 1;',
    '  };',
    '  return new Promise((resolve) => resolve(inner()));',
    '}',
    'class C {',
    '  m(): void {}',
    '}',
  ].join('\n');
  const sizes = functionSizesOf(join(__dirname, 'x.ts'), src).map((f) => [f.id.split(':')[1], f.lines]);
  assert.deepEqual(sizes, [
    ['outer', 6],
    ['inner', 3],
    ['outer/new Promise(…)', 1],
    ['m', 1],
  ]);
});

test(`no new function over ${MAX_LINES} lines, and the allow-list names only functions still over it`, () => {
  const sizes = allFunctionSizes();
  assert.ok(sizes.length > 1000, `functions found: ${sizes.length}`);
  const long = sizes.filter((f) => f.lines > MAX_LINES);
  const unlisted = long.filter((f) => !ALLOWED.includes(f.id)).map((f) => `${f.id} (${f.lines} lines)`);
  assert.deepEqual(unlisted, [], 'split these (the allow-list only shrinks)');
  const stale = ALLOWED.filter((id) => !long.some((f) => f.id === id));
  assert.deepEqual(stale, [], 'now short or gone: remove from test/unit/function-size.allow.json');
  const over = sizes.filter((f) => f.lines > HARD_CAP).map((f) => `${f.id} (${f.lines} lines)`);
  assert.deepEqual(over, [], `no function is over ${HARD_CAP} lines, listed or not`);
});

test(`at most ${MAX_OVER_50} functions are over 50 lines`, () => {
  const over50 = allFunctionSizes().filter((f) => f.lines > 50);
  assert.ok(
    over50.length <= MAX_OVER_50,
    `${over50.length} functions are over 50 lines (at most ${MAX_OVER_50}): split one of\n` +
      over50.map((f) => `  ${f.id} (${f.lines} lines)`).join('\n'),
  );
});
