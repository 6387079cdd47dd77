// "A point in one place": adding an insertion point is its catalogue entry + `npm run gen`. The
// test adds a fake point (and its payload type) to a copy of the project's sources, runs the
// copy's own `npm run gen`, and checks that every generated artefact lists it: the snippets, the
// payload and scenario schemas, the host's catalogue.json, the rule pages' counts and the
// package.json settings (the wiredPoints enum; the rule-code lists stay whole).
import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { HOOK_DECORATORS, MANTLE_POINTS } from '../../runtime/catalogue';
import { RULES } from '../../runtime/rules';

const REPO = join(__dirname, '..', '..');
const COPIED = [
  'runtime',
  'scripts',
  'schemas',
  'snippets',
  'docs',
  'README.md',
  'package.json',
  'tsconfig.json',
];

const FAKE_POINT = `  {
    id: 'fake_point',
    title: 'fake point',
    payloadType: 'FakePointPayload',
    hasModifyLane: true,
    signals: ['HookRejection'],
    failPolicy: 'open',
    wired: false,
    failEffect: 'fail-open: the original fake is kept',
    signalEffects: { HookRejection: 'the fake is dropped' },
    unsupportedSignalEffect: 'the signal is logged and discarded',
    when: 'Whenever a test needs a point nobody has.',
  },
];`;

const FAKE_PAYLOAD = `  {
    name: 'FakePointPayload',
    doc: 'A payload only this test knows.',
    fields: [field('fake_text', 'str', 'mutable', 'The fake text.', (z) => z.string())],
    sample: { fake_text: 'fake', ...identitySample },
  },
];`;

/** `text` with `marker` replaced once (the test fails loudly when the catalogue's shape moved). */
function replaceOnce(text: string, marker: string, by: string, file: string): string {
  assert.ok(text.includes(marker), `${file} still has ${JSON.stringify(marker)}`);
  return text.replace(marker, by);
}

function editFile(file: string, edit: (text: string) => string): void {
  writeFileSync(file, edit(readFileSync(file, 'utf8')));
}

let copy: string;
const read = (rel: string) => readFileSync(join(copy, rel), 'utf8');

before(() => {
  copy = mkdtempSync(join(tmpdir(), 'hooksmith-fake-point-'));
  for (const entry of COPIED)
    cpSync(join(REPO, entry), join(copy, entry), {
      recursive: true,
      filter: (src) => !src.includes('__pycache__'),
    });
  symlinkSync(join(REPO, 'node_modules'), join(copy, 'node_modules'), 'dir');
  const catalogue = join(copy, 'runtime', 'catalogue');
  editFile(join(catalogue, 'mantle-points.ts'), (t) => {
    const ids = replaceOnce(
      t,
      `  'outgoing_text',\n] as const;`,
      `  'outgoing_text',\n  'fake_point',\n] as const;`,
      'ids',
    );
    return replaceOnce(
      ids,
      '];\n\nexport interface HookDecorator',
      `${FAKE_POINT}\n\nexport interface HookDecorator`,
      'points',
    );
  });
  editFile(join(catalogue, 'mantle-payloads.ts'), (t) => {
    const names = replaceOnce(
      t,
      `  'OutgoingTextPayload',\n]`,
      `  'OutgoingTextPayload',\n  'FakePointPayload',\n]`,
      'names',
    );
    return replaceOnce(
      names,
      '];\n\nconst payloadsByName',
      `${FAKE_PAYLOAD}\n\nconst payloadsByName`,
      'payloads',
    );
  });
  execFileSync('npm', ['run', 'gen', '--silent'], { cwd: copy, stdio: 'pipe', env: { ...process.env } });
});

after(() => {
  if (copy) rmSync(copy, { recursive: true, force: true });
});

test('the snippets offer both lanes of the new point', () => {
  const snippets = JSON.parse(read('snippets/python.json')) as Record<string, { body: string[] }>;
  for (const name of ['on_fake_point', 'modify_fake_point']) {
    const snippet = snippets[`Mantle @${name}()`];
    assert.ok(snippet, `snippet for ${name}`);
    assert.ok(
      snippet.body.some((l) => l.includes('FakePointPayload')),
      `${name} imports its payload`,
    );
  }
});

test('the payload schemas include the new payload type', () => {
  assert.ok(existsSync(join(copy, 'schemas', 'payloads', 'FakePointPayload.schema.json')));
  assert.match(read('schemas/payload.schema.json'), /fake_text/);
  assert.match(read('schemas/scenario.schema.json'), /fake_point\), labelled so/);
});

test("the host's catalogue.json serves the new decorators and payload", () => {
  const hostCatalogue = read('runtime/host/python/catalogue.json');
  for (const s of ['"on_fake_point"', '"modify_fake_point"', '"FakePointPayload"', '"fake_text"'])
    assert.ok(hostCatalogue.includes(s), s);
});

test('package.json: the wiredPoints enum lists the point; the rule-code lists stay whole', () => {
  const pkg = JSON.parse(read('package.json')) as {
    contributes: { configuration: { properties: Record<string, Record<string, { enum: string[] }>> } };
  };
  const props = pkg.contributes.configuration.properties;
  assert.deepEqual(props['hooksmith.mantle.wiredPoints']!.items!.enum, [
    ...MANTLE_POINTS.map((p) => p.id),
    'fake_point',
  ]);
  assert.deepEqual(
    props['hooksmith.rules']!.propertyNames!.enum,
    RULES.map((r) => r.code),
  );
});

test('the rule pages count the new point and decorators', () => {
  const decorators = HOOK_DECORATORS.length + 2;
  assert.match(read('docs/rules/unknown-hook-point.md'), new RegExp(`its ${decorators} hook decorators`));
  assert.match(
    read('docs/rules/unknown-hook-point.md'),
    new RegExp(`lists the ${MANTLE_POINTS.length + 1} points`),
  );
  assert.match(read('docs/rules/unknown-import.md'), new RegExp(`the ${decorators} decorators`));
});
