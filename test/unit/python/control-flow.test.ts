import { test } from 'node:test';
import assert from 'node:assert/strict';
import { modelOf, fn, py } from './helpers';

const cases: [string, string, boolean][] = [
  ['empty-ish', 'pass', true],
  ['return last', 'x = 1\nreturn x', false],
  ['raise last', 'raise ValueError()', false],
  ['return then dead code', 'return 1\nx = 2', false],
  ['if without else', 'if a:\n    return 1', true],
  ['if/else both return', 'if a:\n    return 1\nelse:\n    return 2', false],
  ['if/elif/else all terminate', 'if a:\n    return 1\nelif b:\n    raise E()\nelse:\n    return 3', false],
  ['elif branch falls through', 'if a:\n    return 1\nelif b:\n    x = 1\nelse:\n    return 3', true],
  ['if/elif without else', 'if a:\n    return 1\nelif b:\n    return 2', true],
  ['try/except both return', 'try:\n    return f()\nexcept E:\n    return None', false],
  ['try returns, handler falls through', 'try:\n    return f()\nexcept E:\n    log()', true],
  ['finally returns', 'try:\n    f()\nfinally:\n    return 1', false],
  ['try/else returns, handler raises', 'try:\n    f()\nexcept E:\n    raise\nelse:\n    return 1', false],
  ['while True without break', 'while True:\n    await x()', false],
  ['while True with break', 'while True:\n    if a:\n        break', true],
  ['while True, break only in a nested loop', 'while True:\n    for i in y:\n        break', false],
  ['while cond', 'while a:\n    return 1', true],
  ['for loop', 'for x in y:\n    return x', true],
  ['with returns', 'with a:\n    return 1', false],
  [
    'match with wildcard, all terminate',
    'match a:\n    case 1:\n        return 1\n    case _:\n        return 2',
    false,
  ],
  ['match without wildcard', 'match a:\n    case 1:\n        return 1\n    case 2:\n        return 2', true],
  [
    'match with capture pattern',
    'match a:\n    case 1:\n        return 1\n    case other:\n        return 2',
    false,
  ],
  [
    'match with guarded wildcard',
    'match a:\n    case 1:\n        return 1\n    case _ if b:\n        return 2',
    true,
  ],
  ['nested def returning does not count', 'def g():\n    return 1', true],
];

for (const [name, body, expected] of cases) {
  test(`canFallOffEnd: ${name} → ${expected}`, async () => {
    const src =
      'async def f(a, b):\n' +
      body
        .split('\n')
        .map((l) => '    ' + l)
        .join('\n') +
      '\n';
    const m = await modelOf(src);
    assert.equal(m.syntaxErrors.length, 0, JSON.stringify(m.syntaxErrors));
    assert.equal(fn(m, 'f').body.canFallOffEnd, expected);
  });
}

test('canFallOffEnd: a stub may fall off (callers combine with isStub)', async () => {
  const m = await modelOf(py`
    def f(): ...
  `);
  assert.deepEqual([fn(m, 'f').body.canFallOffEnd, fn(m, 'f').body.isStub], [true, true]);
});
