// Names Python looks up while it imports a module and that nothing defines: pyflakes' F821,
// restricted to the code that runs at import (module-level statements, class bodies, and the
// decorators, default values and annotations of every `def` they hold — never a function body).
// The engine imports each hook module when it loads the agent, so one such name fails the load
// with NameError. Conservative by design: where a name could be defined in a way this walk does
// not follow (a star import, globals(), exec, a guarded block), nothing is reported.
import type { SyntaxNode as Node } from './syntax-node';
import type { UndefinedName, UndefinedNameContext } from './model';
import { rangeOf } from './tree-utils';
import { BUILTINS } from './builtin-names';

/** Text that can define module names behind this walk's back: then nothing is reported. */
const DYNAMIC_DEFINITION =
  /\b(?:globals|locals|vars)\s*\(|\bexec\s*\(|__builtins__|\bimport\s+builtins\b|\bbuiltins\./;
/** A word each match of DYNAMIC_DEFINITION holds: searched first, much faster over a large module. */
const DYNAMIC_WORDS = /globals|locals|vars|exec|builtins/;

/** Blocks that run only on a condition this walk cannot judge: uses inside are not checked. */
const GUARDED_BLOCKS = new Set(['if_statement', 'while_statement', 'try_statement', 'match_statement']);
const IMPORTS = new Set(['import_statement', 'import_from_statement', 'future_import_statement']);

/** A scope whose names are visible to the code it runs: the module, or a class body (with its outer scopes). */
interface Scope {
  names: Set<string>;
  outer?: Scope;
}

/** Deeper than this (thousands of nested brackets), the walk gives up and reports nothing. */
const MAX_DEPTH = 400;
class TooDeep extends Error {}
let depth = 0;

/** Runs `f` one level deeper; past MAX_DEPTH the whole walk is abandoned. */
function deeper<T>(f: () => T): T {
  if (++depth > MAX_DEPTH) throw new TooDeep();
  try {
    return f();
  } finally {
    depth--;
  }
}

interface Walk {
  deferAnnotations: boolean;
  found: UndefinedName[];
  /** The module-level definitions' own names (see definitionNames), by node id. */
  definitions: ReadonlyMap<number, DefinitionNames>;
}

/**
 * Names used at import time that no scope binds, in source order. `deferAnnotations`: the module
 * has `from __future__ import annotations`, so `def` annotations are not evaluated.
 */
export function undefinedAtImport(
  root: Node,
  text: string,
  deferAnnotations: boolean,
  /** What each module-level definition binds and uses, by node id (definitionNames), when known. */
  known?: ReadonlyMap<number, DefinitionNames>,
): UndefinedName[] {
  if (root.hasError || (DYNAMIC_WORDS.test(text) && DYNAMIC_DEFINITION.test(text))) return [];
  const module: Scope = { names: new Set() };
  if (text.includes('global'))
    for (const m of text.matchAll(/^[ \t]*global[ \t]+([\w \t,]+)/gm))
      for (const n of m[1]!.split(',')) module.names.add(n.trim());
  // Module-level definitions through their own names: a rebuild after an edit reuses those of
  // the definitions it did not touch (whose nodes it did not even read).
  const definitions = new Map<number, DefinitionNames>();
  for (const s of root.namedChildren) {
    if (!s || !DEFINITIONS.has(s.type)) continue;
    const names = known?.get(s.id) ?? definitionNames(s, deferAnnotations);
    if (names.uses === 'too-deep') return [];
    definitions.set(s.id, names);
  }
  depth = 0;
  try {
    if (!bindBlock(root, module, definitions)) return [];
    const walk: Walk = { deferAnnotations, found: [], definitions };
    useBlock(root, module, walk);
    return walk.found;
  } catch (e) {
    if (e instanceof TooDeep) return [];
    throw e;
  }
}

const DEFINITIONS = new Set(['decorated_definition', 'function_definition', 'class_definition']);

/**
 * What a module-level definition adds to the walk, from its own text alone: the module names it
 * binds, and the names its import-time code uses that neither it nor the builtins define (those
 * the module does not define either are reported). 'too-deep': the walk gives up.
 */
export interface DefinitionNames {
  binds: string[];
  uses: UndefinedName[] | 'too-deep';
}

export function definitionNames(s: Node, deferAnnotations: boolean): DefinitionNames {
  const own: Scope = { names: new Set() };
  const walk: Walk = { deferAnnotations, found: [], definitions: new Map() };
  try {
    depth = 1; // as in undefinedAtImport's walk of the module's block
    bindDefinition(s, own);
    depth = 1;
    useDefinition(s, { names: new Set() }, walk);
    return { binds: [...own.names], uses: walk.found };
  } catch (e) {
    if (e instanceof TooDeep) return { binds: [], uses: 'too-deep' };
    throw e;
  }
}

/** The names a definition statement binds in the scope it sits in: its name, and its type parameters. */
function bindDefinition(s: Node, scope: Scope): boolean {
  const { def } = unwrap(s);
  if (def?.type !== 'function_definition' && def?.type !== 'class_definition') return false;
  const name = def.childForFieldName('name');
  if (name) scope.names.add(name.text);
  bindAll(def.childForFieldName('type_parameters'), scope);
  return true;
}

// ---- bindings: every name a scope's import-time code can bind, wherever it sits ----

/** Collects the names `block` binds into `scope`; false when a star import makes them unknowable. */
function bindBlock(block: Node, scope: Scope, definitions?: ReadonlyMap<number, DefinitionNames>): boolean {
  return deeper(() => bindBlockNow(block, scope, definitions));
}

function bindBlockNow(
  block: Node,
  scope: Scope,
  definitions?: ReadonlyMap<number, DefinitionNames>,
): boolean {
  for (const s of block.namedChildren) {
    if (!s) continue;
    if (IMPORTS.has(s.type)) {
      if (!bindImport(s, scope)) return false;
      continue;
    }
    const known = definitions?.get(s.id);
    if (known) {
      for (const n of known.binds) scope.names.add(n);
      continue;
    }
    if (bindDefinition(s, scope)) continue;
    if (!bindStatement(s, scope)) return false;
  }
  return true;
}

/** A statement's own targets, then the statements of its blocks (`if`, `try`, `for`, `with`, `match`…). */
function bindStatement(s: Node, scope: Scope): boolean {
  bindIn(s, scope);
  return bindBlocksOf(s, scope);
}

function bindBlocksOf(n: Node, scope: Scope): boolean {
  for (const c of n.namedChildren) {
    if (!c) continue;
    if (c.type === 'block') {
      if (!bindBlock(c, scope)) return false;
    } else if (CLAUSES.has(c.type) && !bindBlocksOf(c, scope)) return false;
  }
  return true;
}

const CLAUSES = new Set([
  'else_clause',
  'elif_clause',
  'except_clause',
  'except_group_clause',
  'finally_clause',
  'case_clause',
]);
const TARGET_FIELDS = new Set(['left', 'alias', 'name']);
const TARGET_TYPES = new Set([
  'as_pattern_target',
  'case_pattern',
  'type_parameter',
  'global_statement',
  'nonlocal_statement',
]);

/** The targets below `n` (down to, not into, its blocks): each identifier in them is bound. */
function bindIn(n: Node, scope: Scope): void {
  return deeper(() => bindInNow(n, scope));
}

function bindInNow(n: Node, scope: Scope): void {
  if (n.type === 'block' || n.type === 'lambda') return;
  if (n.type === 'keyword_argument') {
    const value = n.childForFieldName('value');
    if (value) bindIn(value, scope);
    return;
  }
  const field = n.field;
  if ((field !== null && TARGET_FIELDS.has(field)) || TARGET_TYPES.has(n.type)) {
    bindAll(n, scope);
    return;
  }
  for (const c of n.namedChildren) if (c) bindIn(c, scope);
}

/** Every identifier below `n` (a target, a pattern): bound, conservatively, subscripts and all. */
function bindAll(n: Node | null, scope: Scope): void {
  return deeper(() => bindAllNow(n, scope));
}

function bindAllNow(n: Node | null, scope: Scope): void {
  if (!n) return;
  if (n.type === 'identifier') scope.names.add(n.text);
  for (const c of n.namedChildren) if (c) bindAll(c, scope);
}

function bindImport(s: Node, scope: Scope): boolean {
  if (s.type === 'future_import_statement') return true;
  if (s.type === 'import_from_statement' && s.namedChildren.some((c) => c?.type === 'wildcard_import'))
    return false;
  const names = s.type === 'import_from_statement' ? s.childrenForFieldName('name') : s.namedChildren;
  for (const n of names) {
    if (!n) continue;
    if (n.type === 'aliased_import') {
      const alias = n.childForFieldName('alias');
      if (alias) scope.names.add(alias.text);
    } else if (n.type === 'dotted_name') {
      // `import a.b` binds `a`; `from m import a` binds `a`.
      const first = n.namedChild(0);
      if (first) scope.names.add(first.text);
    }
  }
  return true;
}

// ---- uses: names evaluated while the module is imported ----

type CodeContext = 'module-code' | 'class-body';

function useBlock(block: Node, scope: Scope, walk: Walk, where: CodeContext = 'module-code'): void {
  return deeper(() => useBlockNow(block, scope, walk, where));
}

function useBlockNow(block: Node, scope: Scope, walk: Walk, where: CodeContext): void {
  for (const s of block.namedChildren) if (s) useStatement(s, scope, walk, where);
}

function useStatement(s: Node, scope: Scope, walk: Walk, where: CodeContext): void {
  if (IMPORTS.has(s.type)) return;
  switch (s.type) {
    case 'decorated_definition':
    case 'function_definition':
    case 'class_definition': {
      const known = walk.definitions.get(s.id);
      if (!known) useDefinition(s, scope, walk);
      else if (known.uses !== 'too-deep')
        for (const u of known.uses) if (!isBound(u.name, scope)) walk.found.push(u);
      return;
    }
    case 'global_statement':
    case 'nonlocal_statement':
    case 'delete_statement':
    case 'type_alias_statement': // its value is evaluated lazily
    case 'comment':
      return;
    case 'expression_statement':
      for (const c of s.namedChildren) if (c) useExpression(c, scope, walk, where);
      return;
    case 'for_statement':
      useExpression(s.childForFieldName('right'), scope, walk, where);
      useClauses(s, scope, walk, where);
      return;
    case 'with_statement':
      for (const c of s.namedChildren) {
        if (c?.type === 'with_clause') useExpression(c, scope, walk, where);
        else if (c?.type === 'block') useBlock(c, scope, walk, where);
      }
      return;
    default:
      if (GUARDED_BLOCKS.has(s.type)) {
        // The condition runs; the blocks may not (TYPE_CHECKING, version checks, fallbacks).
        const condition = s.childForFieldName('condition') ?? s.childForFieldName('subject');
        if (condition) useExpression(condition, scope, walk, where);
        return;
      }
      for (const c of s.namedChildren) if (c) useExpression(c, scope, walk, where);
  }
}

/** A for loop's body and `else`: they run as the module loads. */
function useClauses(s: Node, scope: Scope, walk: Walk, where: CodeContext): void {
  for (const c of s.namedChildren) {
    if (c?.type === 'block') useBlock(c, scope, walk, where);
    else if (c?.type === 'else_clause')
      for (const b of c.namedChildren) if (b?.type === 'block') useBlock(b, scope, walk, where);
  }
}

function unwrap(n: Node): { def: Node | null; decorators: Node[] } {
  if (n.type !== 'decorated_definition') return { def: n, decorators: [] };
  return {
    def: n.childForFieldName('definition'),
    decorators: n.namedChildren.filter((c): c is Node => c?.type === 'decorator'),
  };
}

function useDefinition(s: Node, scope: Scope, walk: Walk): void {
  const { def, decorators } = unwrap(s);
  for (const d of decorators) useExpression(d, scope, walk, 'decorator');
  if (!def) return;
  // Type parameters (`def f[T]`) are visible to the header's annotations.
  const header: Scope = { names: new Set(), outer: scope };
  bindAll(def.childForFieldName('type_parameters'), header);
  if (def.type === 'class_definition') {
    useExpression(def.childForFieldName('superclasses'), header, walk, 'class-base');
    const body = def.childForFieldName('body');
    if (!body) return;
    const inner: Scope = { names: new Set(), outer: header };
    if (!bindBlock(body, inner)) return;
    useBlock(body, inner, walk, 'class-body');
    return;
  }
  for (const p of def.childForFieldName('parameters')?.namedChildren ?? []) {
    if (!p) continue;
    useExpression(p.childForFieldName('value'), header, walk, 'default');
    if (!walk.deferAnnotations) useExpression(p.childForFieldName('type'), header, walk, 'annotation');
  }
  if (!walk.deferAnnotations) useExpression(def.childForFieldName('return_type'), header, walk, 'annotation');
}

function isBound(name: string, scope: Scope | undefined): boolean {
  for (let s = scope; s; s = s.outer) if (s.names.has(name)) return true;
  return BUILTINS.has(name);
}

/** Every name an expression looks up when it is evaluated now (not a lambda's body, not a string's text). */
function useExpression(n: Node | null, scope: Scope, walk: Walk, context: UndefinedNameContext): void {
  return deeper(() => useExpressionNow(n, scope, walk, context));
}

function useExpressionNow(n: Node | null, scope: Scope, walk: Walk, context: UndefinedNameContext): void {
  if (!n) return;
  switch (n.type) {
    case 'identifier':
      if (!isBound(n.text, scope)) walk.found.push({ name: n.text, range: rangeOf(n), context });
      return;
    case 'attribute':
      useExpression(n.childForFieldName('object'), scope, walk, context);
      return;
    case 'keyword_argument':
      useExpression(n.childForFieldName('value'), scope, walk, context);
      return;
    case 'lambda':
      for (const p of n.childForFieldName('parameters')?.namedChildren ?? [])
        if (p) useExpression(p.childForFieldName('value'), scope, walk, context);
      return;
    case 'generator_expression':
    case 'list_comprehension':
    case 'set_comprehension':
    case 'dictionary_comprehension': {
      // Only the first iterable is evaluated in the enclosing scope for certain; the rest binds
      // the comprehension's own names (and a generator's runs later, if at all).
      const first = n.namedChildren.find((c) => c?.type === 'for_in_clause');
      useExpression(first?.childForFieldName('right') ?? null, scope, walk, context);
      return;
    }
    case 'string':
      for (const c of n.namedChildren)
        if (c?.type === 'interpolation') useExpression(c, scope, walk, context);
      return;
    case 'type':
      // A string annotation ("Foo") is a forward reference: never evaluated at import.
      if (n.namedChild(0)?.type === 'string') return;
      break;
    case 'named_expression':
      useExpression(n.childForFieldName('value'), scope, walk, context);
      return;
    case 'assignment':
    case 'augmented_assignment': {
      const type = n.childForFieldName('type');
      if (type && !walk.deferAnnotations) useExpression(type, scope, walk, 'annotation');
      useExpression(n.childForFieldName('right'), scope, walk, context);
      // The target's subscripts and attribute objects are evaluated too (`a[k] = v`, `a.b = v`).
      const left = n.childForFieldName('left');
      if (left && left.type !== 'identifier') useTargets(left, scope, walk, context);
      return;
    }
  }
  for (const c of n.namedChildren) if (c) useExpression(c, scope, walk, context);
}

/** In a target list, what is read: `a` of `a.b`, `a` and `k` of `a[k]`; plain names are bound, not read. */
function useTargets(n: Node, scope: Scope, walk: Walk, context: UndefinedNameContext): void {
  if (n.type === 'attribute' || n.type === 'subscript') {
    useExpression(n, scope, walk, context);
    return;
  }
  for (const c of n.namedChildren) if (c && c.type !== 'identifier') useTargets(c, scope, walk, context);
}
