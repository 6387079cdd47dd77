// Counts the lines of every function in client/, server/ and runtime/ with the TypeScript compiler's
// own parser, so the function-size check sees what the 400-line file cap cannot: a 300-line function
// inside a 330-line file. `node --import tsx scripts/function-sizes.ts [--over N]` prints the table.
import { readFileSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';

export const REPO = join(__dirname, '..');
export const SOURCE_FOLDERS = ['client', 'server', 'runtime'] as const;

export interface FunctionSize {
  /** `folder/file.ts:name`, stable across edits elsewhere in the file. */
  readonly id: string;
  readonly file: string;
  readonly line: number;
  readonly lines: number;
}

function tsSources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((d) => {
    const path = join(dir, d.name);
    if (d.isDirectory()) return d.name === 'node_modules' ? [] : tsSources(path);
    return d.name.endsWith('.ts') && !d.name.endsWith('.d.ts') ? [path] : [];
  });
}

/**
 * The name a reader would look for: the function's own, else the variable or property it is assigned
 * to, else the call it is passed to, after its enclosing function's (`start/new Promise(…)`).
 */
function nameOf(node: ts.Node, source: ts.SourceFile, enclosing: string | undefined): string {
  const own = (node as { name?: ts.Node }).name;
  if (own && (ts.isIdentifier(own) || ts.isStringLiteral(own) || ts.isPrivateIdentifier(own)))
    return own.text;
  if (ts.isConstructorDeclaration(node)) return 'constructor';
  const parent = node.parent;
  if (
    ts.isVariableDeclaration(parent) ||
    ts.isPropertyAssignment(parent) ||
    ts.isPropertyDeclaration(parent)
  ) {
    return parent.name.getText(source);
  }
  let passedTo = '(anonymous)';
  if (ts.isCallExpression(parent) || ts.isNewExpression(parent)) {
    const callee = parent.expression;
    const called = ts.isPropertyAccessExpression(callee)
      ? callee.name.text
      : callee.getText(source).slice(0, 40);
    passedTo = `${ts.isNewExpression(parent) ? 'new ' : ''}${called}(…)`;
  }
  return enclosing ? `${enclosing}/${passedTo}` : passedTo;
}

function isFunction(node: ts.Node): node is ts.FunctionLikeDeclaration {
  return (
    ts.isFunctionDeclaration(node) ||
    ts.isFunctionExpression(node) ||
    ts.isArrowFunction(node) ||
    ts.isMethodDeclaration(node) ||
    ts.isConstructorDeclaration(node) ||
    ts.isGetAccessorDeclaration(node) ||
    ts.isSetAccessorDeclaration(node)
  );
}

/** Every function with a body in one file; nested functions are counted on their own and inside their parent. */
export function functionSizesOf(path: string, text: string): FunctionSize[] {
  const source = ts.createSourceFile(path, text, ts.ScriptTarget.ES2022, true);
  const file = relative(REPO, path);
  const found: FunctionSize[] = [];
  const seen = new Map<string, number>();
  const visit = (node: ts.Node, enclosing: string | undefined): void => {
    if (isFunction(node) && node.body) {
      const start = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
      const end = source.getLineAndCharacterOfPosition(node.getEnd()).line;
      const name = nameOf(node, source, enclosing);
      const n = (seen.get(name) ?? 0) + 1;
      seen.set(name, n);
      found.push({
        id: `${file}:${name}${n > 1 ? `#${n}` : ''}`,
        file,
        line: start + 1,
        lines: end - start + 1,
      });
      ts.forEachChild(node, (child) => visit(child, name));
      return;
    }
    ts.forEachChild(node, (child) => visit(child, enclosing));
  };
  visit(source, undefined);
  return found;
}

export function allFunctionSizes(): FunctionSize[] {
  return SOURCE_FOLDERS.flatMap((folder) =>
    tsSources(join(REPO, folder)).flatMap((path) => functionSizesOf(path, readFileSync(path, 'utf8'))),
  );
}

if (require.main === module) {
  const over = Number(process.argv[process.argv.indexOf('--over') + 1]) || 50;
  const sizes = allFunctionSizes().sort((a, b) => b.lines - a.lines);
  for (const f of sizes.filter((s) => s.lines > over)) console.log(`${String(f.lines).padStart(4)}  ${f.id}`);
  const count = (n: number) => sizes.filter((s) => s.lines > n).length;
  console.log(
    `${sizes.length} functions; over 50: ${count(50)}, over 80: ${count(80)}, over 150: ${count(150)}; ` +
      `largest ${sizes[0]?.lines} (${sizes[0]?.id})`,
  );
}
