// The README is a landing page (≤ 25 KB; the long material lives in docs/ and bench/README.md),
// and no link of the README or of the pages it sends readers to points at a file or heading
// that is not there (a moved section leaves no dead link behind).
import { strict as assert } from 'node:assert';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { test } from 'node:test';

const ROOT = join(__dirname, '..', '..');
const MAX_README_BYTES = 25 * 1024;

function markdownUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((d) => {
    const path = join(dir, d.name);
    if (d.isDirectory()) return markdownUnder(path);
    return d.name.endsWith('.md') ? [path] : [];
  });
}

const PAGES = [
  join(ROOT, 'README.md'),
  join(ROOT, 'bench', 'README.md'),
  ...markdownUnder(join(ROOT, 'docs')),
];

/** GitHub's heading anchors: lower case, punctuation dropped, spaces to hyphens. */
export function slug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[`*_]/g, '')
    .replace(/[^\p{L}\p{N}\- ]/gu, '')
    .replace(/ /g, '-');
}

function anchors(file: string): Set<string> {
  const text = readFileSync(file, 'utf8').replace(/^```[\s\S]*?^```/gm, '');
  return new Set([...text.matchAll(/^#{1,6} (.+)$/gm)].map((m) => slug(m[1])));
}

/** Every inline link target of a Markdown text, outside code blocks and code spans. */
export function links(markdown: string): string[] {
  const prose = markdown.replace(/^```[\s\S]*?^```/gm, '').replace(/`[^`\n]*`/g, '');
  return [...prose.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]);
}

test(`the README is a landing page: at most ${MAX_README_BYTES} bytes`, () => {
  const size = statSync(join(ROOT, 'README.md')).size;
  assert.ok(size <= MAX_README_BYTES, `README.md is ${size} bytes; move long material to docs/*.md`);
});

test('the README keeps the two commands at its top', () => {
  const lines = readFileSync(join(ROOT, 'README.md'), 'utf8').split('\n');
  assert.equal(lines[0], '# Hooksmith');
  assert.equal(lines[2], '```sh');
  assert.match(lines[3], /^npm ci && npm run build && npx hooksmith check /);
  assert.equal(lines[4], 'npm run test:all');
  assert.equal(lines[5], '```');
});

test('every local link of the README, bench/README.md and docs/ resolves (file, and heading when named)', () => {
  assert.ok(PAGES.length > 5, PAGES.join());
  const dead: string[] = [];
  for (const page of PAGES) {
    for (const target of links(readFileSync(page, 'utf8'))) {
      if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // https:, command:, mailto:
      const [path, fragment] = target.split('#');
      const file = path ? resolve(dirname(page), decodeURIComponent(path)) : page;
      const where = `${relative(ROOT, page)} → ${target}`;
      if (!existsSync(file)) dead.push(`${where} (no such file)`);
      else if (fragment && file.endsWith('.md') && !anchors(file).has(fragment))
        dead.push(`${where} (no such heading)`);
    }
  }
  assert.deepEqual(dead, []);
});

test('the link check sees links and headings as GitHub does', () => {
  assert.deepEqual(links('a [x](docs/a.md) `[y](no)` and\n```\n[z](no)\n```\n[w](#b)'), ['docs/a.md', '#b']);
  assert.equal(
    slug('How Hooksmith models the engines — choices where the spec is silent'),
    'how-hooksmith-models-the-engines--choices-where-the-spec-is-silent',
  );
  assert.equal(slug('`hooksmith test`'), 'hooksmith-test');
});
