// The editor's view of a measured file (#32): statement lines with the cases that ran them, branch
// lines with each destination taken or missed, and the counts VS Code's FileCoverage shows.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { LineCoverage } from '../../runtime/testing/coverage/line-coverage';
import { coverageCounts, lineDetails } from '../../runtime/testing/coverage/editor-detail';

function measured() {
  const lines = new LineCoverage();
  const described = {
    'h.py': {
      statements: [1, 4, 5, 6, 8],
      branches: [[5, [6, 8]] as [number, number[]], [8, [-3]] as [number, number[]]],
    },
  };
  // Case a takes the deny branch (5 -> 6); case b the other (5 -> 8) and leaves (8 -> exit).
  lines.add('a', { described, files: { 'h.py': { lines: [1, 4, 5, 6], arcs: [[5, 6]] } } } as never);
  lines.add('b', {
    files: {
      'h.py': {
        lines: [1, 4, 5, 8],
        arcs: [
          [5, 8],
          [8, -3],
        ],
      },
    },
  } as never);
  lines.add('c', { files: { 'h.py': { lines: [1], arcs: [] } } } as never);
  return lines;
}

test('statements carry how many cases ran them; a line no case ran is 0', () => {
  const [f] = measured().files();
  assert.deepEqual(
    lineDetails(f!).map((d) => [d.line, d.cases]),
    [
      [1, 3],
      [4, 2],
      [5, 2],
      [6, 1],
      [8, 1],
    ],
  );
});

test('branches: each destination with the cases that took it, labelled; an exit is "exit"', () => {
  const [f] = measured().files();
  const byLine = new Map(lineDetails(f!).map((d) => [d.line, d.branches]));
  assert.deepEqual(byLine.get(5), [
    { to: 6, cases: 1, label: 'to line 6' },
    { to: 8, cases: 1, label: 'to line 8' },
  ]);
  assert.deepEqual(byLine.get(8), [{ to: -3, cases: 1, label: 'exit' }]);
  assert.deepEqual(byLine.get(1), []);
});

test('counts: covered of total statements and branch destinations; one case alone misses lines', () => {
  const all = measured();
  assert.deepEqual(coverageCounts(all.files()[0]!), {
    statements: { covered: 5, total: 5 },
    branches: { covered: 3, total: 3 },
  });
  const onlyC = all.files((id) => id === 'c')[0]!;
  assert.deepEqual(coverageCounts(onlyC), {
    statements: { covered: 1, total: 5 },
    branches: { covered: 0, total: 3 },
  });
  assert.deepEqual(
    lineDetails(onlyC)
      .filter((d) => !d.cases)
      .map((d) => d.line),
    [4, 5, 6, 8],
  );
});
