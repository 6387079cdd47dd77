// Errors are told apart by type (`instanceof` on a small class with structured fields), never by their
// name string or by reading their English: a renamed class or reworded message cannot change a verdict.
import { strict as assert } from 'node:assert';
import { readFileSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { test } from 'node:test';

const REPO = join(__dirname, '..', '..');

function tsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((d) => {
    const path = join(dir, d.name);
    if (d.isDirectory()) return tsFiles(path);
    return d.name.endsWith('.ts') ? [path] : [];
  });
}

test("no source compares an error's name with a string", () => {
  const found: string[] = [];
  for (const folder of ['runtime', 'server', 'client'])
    for (const file of tsFiles(join(REPO, folder))) {
      const at = relative(REPO, file);
      readFileSync(file, 'utf8')
        .split('\n')
        .forEach((line, i) => {
          if (/\.name\s*[!=]==?\s*['"`]\w*(Error|Mismatch|Exception)['"`]/.test(line))
            found.push(`${at}:${i + 1}`);
        });
    }
  assert.deepEqual(found, []);
});
