// A rewritten file keeps its form (#34 items 1-2): runtime/workspace/text-form.ts and the one
// read-modify-write that uses it (updateFileAtomic, behind `hooksmith test --update`).
import { strict as assert } from 'node:assert';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { updateFileAtomic } from '../../runtime/workspace/atomic-file';
import { decodeText, encodeText, NotUtf8Error, strictUtf8 } from '../../runtime/workspace/text-form';

const dir = mkdtempSync(join(tmpdir(), 'hooksmith-text-form-'));
after(() => rmSync(dir, { recursive: true, force: true }));

test('decodeText takes the BOM and CRLF off, encodeText puts them back', () => {
  const bytes = Buffer.from('\ufeffa: 1\r\nb: 2\r\n', 'utf8');
  const { text, form } = decodeText('f', bytes);
  assert.equal(text, 'a: 1\nb: 2\n');
  assert.deepEqual(form, { bom: true, crlf: true });
  assert.equal(encodeText(text + 'c: 3\n', form), '\ufeffa: 1\r\nb: 2\r\nc: 3\r\n');
  assert.deepEqual(decodeText('f', Buffer.from('a\r\nb\n')).form, { bom: false, crlf: false }, 'mixed');
  assert.deepEqual(decodeText('f', Buffer.from('')).form, { bom: false, crlf: false });
});

test('not UTF-8: the first bad byte is named (a lone latin-1 byte, a cut sequence, an overlong form)', () => {
  for (const [hex, at] of [
    ['52656ee965', 3], // Renée in latin-1
    ['61e282', 1], // a, then the first two bytes of a three-byte sequence
    ['c0af', 0], // an overlong '/'
    ['efbbbf61ff', 4], // after a BOM
  ] as const) {
    assert.throws(
      () => strictUtf8('f', Buffer.from(hex, 'hex')),
      (e: unknown) =>
        e instanceof NotUtf8Error && e.offset === at && /not UTF-8 \(byte \d+\)/.test(e.message),
      hex,
    );
  }
  assert.equal(
    strictUtf8('f', Buffer.from('Ren\u00e9e \ufffd', 'utf8')),
    'Ren\u00e9e \ufffd',
    'a real U+FFFD is text',
  );
});

test('updateFileAtomic refuses a file that is not UTF-8 and leaves its bytes; keeps BOM and CRLF', () => {
  const latin = join(dir, 'latin.yaml');
  const bytes = Buffer.from('# Ren\xe9e\nx: 1\n', 'latin1');
  writeFileSync(latin, bytes);
  assert.throws(() => updateFileAtomic(latin, (t) => `${t}y: 2\n`), NotUtf8Error);
  assert.deepEqual(readFileSync(latin), bytes);
  const crlf = join(dir, 'crlf.yaml');
  writeFileSync(crlf, '\ufeffx: 1\r\n');
  updateFileAtomic(crlf, (t) => {
    assert.equal(t, 'x: 1\n');
    return `${t}y: 2\n`;
  });
  assert.equal(readFileSync(crlf, 'utf8'), '\ufeffx: 1\r\ny: 2\r\n');
  assert.deepEqual(readdirSync(dir).sort(), ['crlf.yaml', 'latin.yaml']);
});
