// Messages that named the problem badly (#31 item 9): an eval file's missing key named on the
// diagnostic, and a malformed case file's one line in the Testing view starting with the errors,
// not with the absolute path.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { malformedSummary } from '../../runtime/testing/cases';
import { checkCaseFile } from '../../runtime/testing/case-file-check';
import { readCase } from '../../runtime/testing/discover-cases';

const dir = mkdtempSync(join(tmpdir(), 'hooksmith-case-messages-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const EVAL = 'scenario:\n  type: happy_path\n  simulation_context: A user orders a pizza.\n';

test('an eval file without scenario.name: the diagnostic names the missing key', () => {
  mkdirSync(join(dir, 'eval', 'scenarios'), { recursive: true });
  const file = join(dir, 'eval', 'scenarios', 'order.yml');
  const messages = checkCaseFile(file, EVAL).map((d) => d.message);
  assert.ok(messages.includes('name is missing: expected string'), JSON.stringify(messages));
});

test("a malformed case file's line in the Testing view: the errors first, no absolute path", () => {
  const file = join(dir, 'eval', 'scenarios', 'order.yml');
  writeFileSync(file, EVAL);
  const read = readCase(file);
  assert.ok(read && !('kind' in read), 'malformed');
  const line = malformedSummary(read);
  assert.ok(!line.includes(dir), line);
  assert.match(line, /^scenario\.name: expected string \(missing\).*\(invalid Mantle scenario\)$/);
});
