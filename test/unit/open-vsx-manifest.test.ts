// The package meets Open VSX's publishing rules (docs/development.md#publishing): a publisher, an
// SPDX license with its file, a repository, a PNG icon of at least 128 px, engines.vscode, and no
// required Microsoft-only extension.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';

const root = join(__dirname, '..', '..');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as Record<string, unknown>;

test('publisher, license and its file, repository, engines.vscode', () => {
  assert.match(String(pkg.publisher), /^[a-z0-9][a-z0-9-]*$/);
  assert.match(String(pkg.license), /^(MIT|Apache-2\.0|BSD-[23]-Clause|ISC|MPL-2\.0)$/);
  assert.ok(existsSync(join(root, 'LICENSE')), 'LICENSE is packaged beside package.json');
  const repo = pkg.repository as { url?: string } | string | undefined;
  assert.match(typeof repo === 'string' ? repo : String(repo?.url), /^https:\/\//);
  assert.match(String((pkg.engines as Record<string, string>).vscode), /^\^1\.\d+\.\d+$/);
});

test('the icon is a PNG of at least 128 × 128 px', () => {
  const icon = readFileSync(join(root, String(pkg.icon)));
  assert.equal(icon.subarray(1, 4).toString('latin1'), 'PNG');
  // IHDR: width and height, big-endian, at bytes 16 and 20.
  assert.ok(icon.readUInt32BE(16) >= 128 && icon.readUInt32BE(20) >= 128);
});

test('no Microsoft-only extension is required', () => {
  const required = [
    ...((pkg.extensionDependencies as string[] | undefined) ?? []),
    ...((pkg.extensionPack as string[] | undefined) ?? []),
  ];
  assert.deepEqual(
    required.filter((id) => /^ms-/.test(id)),
    [],
  );
});
