// Issue #44 item 10: every coverage report written is valid for its format. Cobertura goes through
// a real XML parser (python3's expat, as CI uploaders use a strict parser); LCOV through lcov-parse.
// File names that XML or LCOV cannot hold as they are (a line break, control characters, markup)
// must neither break the document nor forge records.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { test } from 'node:test';
import { formatCobertura } from '../../runtime/testing/coverage/cobertura';
import { formatLcov, lcovUnwritable } from '../../runtime/testing/coverage/lcov';
import type { FileCoverage } from '../../runtime/testing/coverage/line-coverage';

const lcovParse = createRequire(__filename)('lcov-parse') as (
  input: string,
  cb: (err: unknown, data: { file: string; lines: { found: number } }[]) => void,
) => void;

/** The document through expat: the filename attribute of every <class>, or the parser's error. */
function parseXml(xml: string): { filenames?: string[]; error?: string } {
  const r = spawnSync(
    'python3',
    [
      '-c',
      'import sys, json, xml.dom.minidom as m\n' +
        'd = m.parseString(sys.stdin.buffer.read())\n' +
        'print(json.dumps([c.getAttribute("filename") for c in d.getElementsByTagName("class")]))',
    ],
    { input: xml, encoding: 'utf8' },
  );
  return r.status === 0 ? { filenames: JSON.parse(r.stdout) as string[] } : { error: r.stderr };
}

const file = (name: string): FileCoverage => ({
  file: name,
  statements: [1, 2, 4],
  lineCases: new Map([
    [1, 2],
    [2, 1],
  ]),
  branches: new Map([
    [
      2,
      [
        { to: 4, cases: 0 },
        { to: -1, cases: 1 },
      ],
    ],
  ]),
  cases: ['a::x'],
});

const FORGED = 'agent/evil\nend_of_record\nSF:/etc/passwd.py';
const NAMES = [
  'agent/hooks.py',
  FORGED,
  'agent/odd "<&>" \t\u0001\u001b[31m\uFFFE.py',
  'agent/\u00e9t\u00e9 -- x.py',
];
const same = (f: string) => f;

test('Cobertura parses with expat: no "--" in a comment, names escaped, what XML cannot hold replaced', () => {
  const xml = formatCobertura(NAMES.map(file), same, 'hooksmith 0.1.0');
  const parsed = parseXml(xml);
  assert.equal(parsed.error, undefined, xml);
  // A line break and a tab survive as character references (an attribute would normalise them);
  // what XML cannot hold is U+FFFD.
  assert.deepEqual(
    [...parsed.filenames!].sort(),
    [NAMES[0], FORGED, 'agent/odd "<&>" \t\uFFFD\uFFFD[31m\uFFFD.py', NAMES[3]].sort(),
  );
  for (const comment of xml.match(/<!--[\s\S]*?-->/g) ?? []) assert.doesNotMatch(comment.slice(4, -3), /--/);
  // No files measured: still a document.
  assert.equal(parseXml(formatCobertura([], same, 'hooksmith 0.1.0')).error, undefined);
});

test('LCOV: a file name with a line break is left out (and named), never written raw to forge records', async () => {
  const text = formatLcov(NAMES.map(file), same);
  const records = await new Promise<{ file: string }[]>((resolve, reject) =>
    lcovParse(text, (err, data) => (err ? reject(err) : resolve(data))),
  );
  assert.deepEqual(
    records.map((r) => r.file),
    [NAMES[0], NAMES[2], NAMES[3]],
  );
  assert.equal(text.match(/^end_of_record$/gm)?.length, 3);
  assert.doesNotMatch(text, /\/etc\/passwd/);
  assert.deepEqual(lcovUnwritable(NAMES.map(file), same), [FORGED]);
});
