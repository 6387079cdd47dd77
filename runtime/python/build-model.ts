// Tree-sitter tree → HookModule. Module-level imports are collected first (so names used
// before a late import still resolve, as they would at call time), then definitions.
import type { Tree } from 'web-tree-sitter';
import type { SyntaxNode as Node, SyntaxTree } from './syntax-node';
import { toSyntaxTree } from './syntax-tree';
import type { ClassDef, Decorator, FunctionDef, HookModule, ImportBinding, SyntaxIssue } from './model';
import { Scope, importBindings } from './imports';
import { IMPORT_TYPES, MODULE_BLOCKS, moduleLevel } from './module-level';
import { annotationOf, callFacts } from './expressions';
import { bodyFacts } from './body-facts';
import { parametersOf } from './parameters';
import { firstSyntaxError } from './syntax-errors';
import { substituteReason } from './parser';
import { literalOf, positionOf, rangeOf, useLspLines } from './tree-utils';
import { definitionNames, undefinedAtImport, type DefinitionNames } from './import-time-names';
import { cacheFunction, cachedFunction, cachingFor, scopeKey } from './function-cache';
import { moduleStringConstants } from './module-constants';

export function buildModel(tree: Tree, text: string, path: string): HookModule {
  const syntax = toSyntaxTree(tree, text);
  try {
    useLspLines(tree, text); // the server's features read positions off the tree-sitter tree too
    return modelOfSyntax(syntax, text, path, substituteReason(tree));
  } finally {
    syntax.release(); // the model is plain data: no node outlives the build
  }
}

/**
 * The model of a tree already read into a SyntaxTree, with the parser's reason when the tree is a
 * stand-in (substituteReason). Exported for tests that count how often a build reads the tree.
 */
/** What modelling a module's defs needs beyond the defs themselves. */
interface DefsInput {
  readonly syntax: SyntaxTree;
  readonly ctx: DefContext;
  readonly nestedCtx: DefContext | undefined;
  readonly reuse: DefReuse | undefined;
  readonly earlier: ReturnType<DefReuse['begin']> | undefined;
  readonly futureAnnotations: boolean;
}

/** The module's functions and classes (nested classes last); each def's names go into `names`. */
function modelDefs(defs: Node[], input: DefsInput, names: Map<number, DefinitionNames>) {
  const { syntax, ctx, nestedCtx, reuse, earlier, futureAnnotations } = input;
  const { localImports } = ctx;
  const functions: FunctionDef[] = [];
  const classes: ClassDef[] = [];
  const nested: ClassDef[] = [];
  for (const d of defs) {
    // A def read as a leaf (toSyntaxTree's skip) is one the previous build modelled.
    let parts = d.childCount === 0 ? earlier?.(d) : undefined;
    if (!parts) {
      if (d.childCount === 0 && reuse) throw new StaleReuse();
      parts = defParts(d, ctx, nestedCtx);
      if (syntax.parentOf[d.row] === 0) parts.names = definitionNames(d, futureAnnotations);
    }
    if (parts.names) {
      names.set(d.id, parts.names);
      reuse?.keep(d, parts); // only defs directly in the module are read as leaves
    }
    if (parts.fn) functions.push(parts.fn);
    if (parts.cls) classes.push(parts.cls);
    for (const b of parts.localImports) localImports.push(b);
    for (const c of parts.nested) nested.push(c);
  }
  for (const c of nested) classes.push(c);

  return { functions, classes };
}

export function modelOfSyntax(
  syntax: SyntaxTree,
  text: string,
  path: string,
  substitute: SyntaxIssue | undefined,
  reuse?: DefReuse,
): HookModule {
  useLspLines(syntax, text);
  const root = syntax.rootNode;
  const { imports, scope, added, defs, futureAnnotations } = moduleLevel(root);
  const localImports: ImportBinding[] = [];
  const ctx: DefContext = { scope, scopeKey: cachingFor(path) ? scopeKey(added) : undefined, localImports };
  // Classes made in a factory, a test or another class (Cayu hooks often are): only indented
  // `class` lines can start one, so modules without any skip the walk.
  // A substring search first: much faster than the regular expression over a large module.
  const indentedClass = text.includes('class') && INDENTED_CLASS.test(text);
  const nestedCtx: DefContext | undefined = indentedClass
    ? { scope, scopeKey: undefined, localImports: [] }
    : undefined;
  // What the parts of a def depend on beyond its own text and start.
  const earlier = reuse?.begin(`${scopeKey(added)}\n${indentedClass}\n${futureAnnotations}`);
  const names = new Map<number, DefinitionNames>();
  const { functions, classes } = modelDefs(
    defs,
    { syntax, ctx, nestedCtx, reuse, earlier, futureAnnotations },
    names,
  );
  const error = substitute ?? (root.hasError ? firstSyntaxError(root, text) : undefined);
  const first = root.namedChildren.find((c) => c?.type !== 'comment');
  const docstring = first?.type === 'expression_statement' && first.namedChildren[0]?.type === 'string';
  const undefinedNames = error ? [] : undefinedAtImport(root, text, futureAnnotations, names);
  const constants = moduleStringConstants(root, text, imports);
  return {
    path,
    syntaxErrors: error ? [error] : [],
    futureAnnotations,
    ...(docstring ? { docstring: rangeOf(first) } : {}),
    imports: [...imports, ...localImports],
    functions,
    classes,
    lineCount: countLines(text),
    ...(undefinedNames.length ? { undefinedAtImport: undefinedNames } : {}),
    ...(constants ? { stringConstants: constants } : {}),
  };
}

const INDENTED_CLASS = /^[ \t]+class[ \t]/m;

/** What one module-level definition adds to the model: its function or class, and more. */
export interface DefParts {
  fn?: FunctionDef;
  cls?: ClassDef;
  /** Classes defined inside it (when the module has indented class lines). */
  nested: ClassDef[];
  /** The function-local imports its bodies added. */
  localImports: ImportBinding[];
  /** For a def directly in the module: what it binds and uses as the module is imported. */
  names?: DefinitionNames;
}

/**
 * Reuse of an earlier build's definitions (model-memo.ts). `begin` gets the module's import scope
 * and whether it has indented class lines, and returns the earlier parts of a def read as a leaf
 * (undefined when the earlier build had another scope); `keep` records each def's parts.
 */
export interface DefReuse {
  begin(context: string): ((def: Node) => DefParts | undefined) | undefined;
  keep(def: Node, parts: DefParts): void;
}

/** A def was read as a leaf but the earlier build cannot stand for it: read the whole tree. */
export class StaleReuse extends Error {}

function defParts(d: Node, ctx: DefContext, nestedCtx: DefContext | undefined): DefParts {
  const parts: DefParts = { nested: [], localImports: [] };
  const { def, decorators } = unwrapDecorated(d);
  if (!def) return parts;
  const own = { ...ctx, localImports: parts.localImports };
  if (def.type === 'function_definition') parts.fn = cachedFunctionDef(d, def, decorators, own);
  else if (def.type === 'class_definition') parts.cls = classDef(d, def, own);
  if (nestedCtx) nestedClasses(def, '', nestedCtx, parts.nested);
  return parts;
}
/** Statements whose blocks a class definition may sit in (below a function or class body). */
const NESTING_BLOCKS = new Set([
  ...MODULE_BLOCKS,
  'for_statement',
  'while_statement',
  'match_statement',
  'case_clause',
  'ERROR',
]);

/**
 * Classes defined below `def` (a function or class definition), at any depth, in source order.
 * `prefix` is the qualname of what encloses `def` ("" at module level). A function's own imports
 * resolve the names of the classes inside it.
 */
function nestedClasses(def: Node, prefix: string, ctx: DefContext, out: ClassDef[]): void {
  const name = def.childForFieldName('name')?.text ?? '';
  const isFunction = def.type === 'function_definition';
  const qualname = `${prefix}${name}${isFunction ? '.<locals>' : ''}`;
  const body = def.childForFieldName('body');
  if (!body) return;
  let inner = ctx;
  if (isFunction) {
    const scope = new Scope(ctx.scope);
    forEachStatement(body, (s) => {
      if (IMPORT_TYPES.has(s.type)) for (const b of importBindings(s, false)) scope.add(b);
    });
    inner = { ...ctx, scope };
  }
  forEachStatement(body, (s) => {
    const { def: d } = unwrapDecorated(s);
    if (d?.type === 'class_definition') out.push({ ...classDef(s, d, inner), enclosing: qualname });
    if (d?.type === 'class_definition' || d?.type === 'function_definition')
      nestedClasses(d, `${qualname}.`, inner, out);
  });
}

/** Statements of a block, entering compound statements but not definitions. */
function forEachStatement(block: Node, visit: (s: Node) => void): void {
  for (const s of block.namedChildren) {
    if (!s) continue;
    if (NESTING_BLOCKS.has(s.type)) {
      forEachStatement(s, visit);
      continue;
    }
    visit(s);
  }
}

function countLines(text: string): number {
  if (text.length === 0) return 0;
  let n = 1;
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) n++;
  return text.endsWith('\n') ? n - 1 : n;
}

function unwrapDecorated(n: Node): { def: Node | null; decorators: Node[] } {
  if (n.type !== 'decorated_definition') return { def: n, decorators: [] };
  const decorators = n.namedChildren.filter((c): c is Node => !!c && c.type === 'decorator');
  return { def: n.childForFieldName('definition'), decorators };
}

function decoratorOf(d: Node, scope: Scope): Decorator | undefined {
  const expr = d.namedChildren.find((c) => c && c.type !== 'comment');
  if (!expr) return undefined;
  // From `@` to the end of the expression: the decorator node also holds a trailing comment.
  const range = { start: rangeOf(d).start, end: rangeOf(expr).end };
  if (expr.type === 'call') {
    const call = callFacts(expr, scope, false);
    return { range, ref: call.callee, called: true, call };
  }
  return { range, ref: scope.refOrText(expr), called: false };
}

interface DefContext {
  scope: Scope;
  /** The module's imports, as a cache key part (names resolve through them); undefined: no caching. */
  scopeKey: string | undefined;
  localImports: ImportBinding[];
}

/**
 * functionDef() through the cache of recent builds (see cachingFor). Only defs without syntax
 * errors are cached: error recovery may read the same text differently in another context.
 */
function cachedFunctionDef(
  outer: Node,
  def: Node,
  decoratorNodes: Node[],
  ctx: DefContext,
  className?: string,
): FunctionDef {
  if (ctx.scopeKey === undefined || outer.hasError)
    return functionDef(outer, def, decoratorNodes, ctx.scope, ctx.localImports, className);
  const at = positionOf(outer, 'start');
  const key = `${at.line}:${at.character}:${className ?? ''}\n${ctx.scopeKey}\0${outer.text}`;
  const hit = cachedFunction(key);
  if (hit) {
    for (const b of hit.localImports) ctx.localImports.push(b);
    return hit.def;
  }
  const before = ctx.localImports.length;
  const fn = functionDef(outer, def, decoratorNodes, ctx.scope, ctx.localImports, className);
  cacheFunction(key, { def: fn, localImports: ctx.localImports.slice(before) });
  return fn;
}

function functionDef(
  outer: Node,
  def: Node,
  decoratorNodes: Node[],
  scope: Scope,
  localImports: ImportBinding[],
  className?: string,
): FunctionDef {
  const nameNode = def.childForFieldName('name');
  const params = def.childForFieldName('parameters');
  const ret = def.childForFieldName('return_type');
  const body = def.childForFieldName('body');
  let isAsync = false;
  let defKeyword: Node | undefined;
  for (const c of def.children) {
    if (c.type === 'async') isAsync = true;
    if (c.type === 'def') {
      defKeyword = c;
      break;
    }
  }
  const decorators: Decorator[] = [];
  for (const d of decoratorNodes) {
    const dec = decoratorOf(d, scope);
    if (dec) decorators.push(dec);
  }
  return {
    name: nameNode?.text ?? '',
    nameRange: rangeOf(nameNode ?? def),
    range: rangeOf(outer),
    defKeywordRange: rangeOf(defKeyword ?? def),
    isAsync,
    decorators,
    parameters: params ? parametersOf(params, scope) : [],
    parametersRange: rangeOf(params ?? def),
    ...(ret ? { returnAnnotation: annotationOf(ret, scope) } : {}),
    body: body ? bodyFacts(body, scope, localImports) : emptyBody(),
    ...(className !== undefined ? { className } : {}),
  };
}

function emptyBody(): FunctionDef['body'] {
  return {
    raises: [],
    returns: [],
    calls: [],
    modelCopies: [],
    writes: [],
    bindings: [],
    attributeReads: [],
    canFallOffEnd: true,
    isStub: false,
  };
}

function classDef(outer: Node, def: Node, ctx: DefContext): ClassDef {
  const scope = ctx.scope;
  const nameNode = def.childForFieldName('name');
  const name = nameNode?.text ?? '';
  const bases: ClassDef['bases'] = [];
  const supers = def.childForFieldName('superclasses');
  for (const b of supers?.namedChildren ?? []) {
    if (!b || b.type === 'keyword_argument' || b.type === 'comment') continue;
    const ref = scope.ref(b.type === 'subscript' ? (b.childForFieldName('value') ?? b) : b);
    bases.push(ref ?? scope.refOrText(b));
  }
  const methods: FunctionDef[] = [];
  const attributes: ClassDef['attributes'] = [];
  const body = def.childForFieldName('body');
  for (const s of body?.namedChildren ?? []) {
    if (!s) continue;
    if (s.type === 'function_definition' || s.type === 'decorated_definition') {
      const { def: fn, decorators } = unwrapDecorated(s);
      if (fn?.type === 'function_definition') methods.push(cachedFunctionDef(s, fn, decorators, ctx, name));
    } else if (s.type === 'expression_statement') {
      const a = s.namedChild(0);
      if (a?.type !== 'assignment') continue;
      const left = a.childForFieldName('left');
      const right = a.childForFieldName('right');
      if (left?.type !== 'identifier') continue;
      attributes.push({
        name: left.text,
        value: right ? literalOf(right) : { kind: 'other', text: '' },
        range: rangeOf(a),
      });
    }
  }
  return { name, nameRange: rangeOf(nameNode ?? def), range: rangeOf(outer), bases, methods, attributes };
}
