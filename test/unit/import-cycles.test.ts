// No two files import values from each other (#43): a circle of value imports makes load order matter
// (one side sees the other's exports undefined while it loads) and says the two are one concept split
// wrong. Type-only imports are free: they vanish from the build. Read with the TypeScript parser.
import { strict as assert } from 'node:assert';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { test } from 'node:test';
import ts from 'typescript';

const REPO = resolve(__dirname, '..', '..');

function tsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((d) => {
    const path = join(dir, d.name);
    if (d.isDirectory()) return tsFiles(path);
    return d.name.endsWith('.ts') && !d.name.endsWith('.d.ts') ? [path] : [];
  });
}

function typeOnly(node: ts.ImportDeclaration | ts.ExportDeclaration): boolean {
  if (ts.isExportDeclaration(node)) {
    if (node.isTypeOnly) return true;
    const named = node.exportClause;
    return !!named && ts.isNamedExports(named) && named.elements.every((e) => e.isTypeOnly);
  }
  const clause = node.importClause;
  if (!clause) return false; // `import './x'` runs the module
  if (clause.isTypeOnly) return true;
  const named = clause.namedBindings;
  return !clause.name && !!named && ts.isNamedImports(named) && named.elements.every((e) => e.isTypeOnly);
}

/** The relative specifiers a file takes values from: imports, re-exports, require() and import(). */
export function valueImports(path: string, text: string): string[] {
  const source = ts.createSourceFile(path, text, ts.ScriptTarget.ES2022, true);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier) {
      if (ts.isStringLiteral(node.moduleSpecifier) && !typeOnly(node)) found.push(node.moduleSpecifier.text);
    } else if (
      ts.isCallExpression(node) &&
      node.arguments.length === 1 &&
      ts.isStringLiteral(node.arguments[0]!)
    ) {
      const callee = node.expression;
      if (
        callee.kind === ts.SyntaxKind.ImportKeyword ||
        (ts.isIdentifier(callee) && callee.text === 'require')
      )
        found.push(node.arguments[0].text);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found.filter((s) => s.startsWith('.'));
}

function resolveSpec(from: string, spec: string): string | undefined {
  const base = resolve(dirname(from), spec);
  return [`${base}.ts`, join(base, 'index.ts'), base].find((p) => p.endsWith('.ts') && existsSync(p));
}

test('valueImports counts values, side effects, require and import(), not type-only imports', () => {
  const src = [
    "import type { A } from './a';",
    "import { type B, type C } from './b';",
    "import { type D, e } from './d';",
    "import f from './f';",
    "import './g';",
    "export { h } from './h';",
    "export type { I } from './i';",
    "const j = require('./j');",
    "const k = () => import('./k');",
    "import * as l from './l';",
    "import { m } from 'node:fs';",
  ].join('\n');
  assert.deepEqual(valueImports('x.ts', src), ['./d', './f', './g', './h', './j', './k', './l']);
});

test('no two files in client/, server/ and runtime/ import values from each other', () => {
  const edges = new Map<string, Set<string>>();
  const files = ['client', 'server', 'runtime'].flatMap((f) => tsFiles(join(REPO, f)));
  assert.ok(files.length > 200, `sources found: ${files.length}`);
  for (const file of files) {
    const targets = new Set<string>();
    for (const spec of valueImports(file, readFileSync(file, 'utf8'))) {
      const target = resolveSpec(file, spec);
      if (target) targets.add(target);
    }
    edges.set(file, targets);
  }
  const circles: string[] = [];
  for (const [a, targets] of edges)
    for (const b of targets)
      if (a < b && edges.get(b)?.has(a)) circles.push(`${relative(REPO, a)} ↔ ${relative(REPO, b)}`);
  assert.deepEqual(circles, []);
});
