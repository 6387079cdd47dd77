// Facts from one function body in a single iterative walk (deeply nested code must not
// overflow the JS stack). Nested defs, classes and lambdas are not entered.
import type { SyntaxNode as Node } from './syntax-node';
import type {
  AttributeRead,
  AttributeWrite,
  BodyFacts,
  CallFacts,
  ImportBinding,
  LocalBinding,
  ModelCopyFacts,
  RaiseFacts,
  ReturnFacts,
} from './model';
import { Scope, importBindings } from './imports';
import { callFacts } from './expressions';
import { canFallOffEnd } from './control-flow';
import { literalOf, rangeOf } from './tree-utils';
import { expectedFailureSpan } from './expected-failure';
import { callSideFacts, targetWrites } from './body-writes';

// Kept importable from here, where the rules have always found it.
export { MUTATING_METHODS } from './body-writes';

const NOT_ENTERED = new Set(['function_definition', 'class_definition', 'decorated_definition', 'lambda']);

/** Leaves and literals that hold no calls, raises, returns or writes: not walked into. */
const OPAQUE = new Set([
  'identifier',
  'integer',
  'float',
  'true',
  'false',
  'none',
  'comment',
  'ellipsis',
  'escape_sequence',
  'string_content',
  'string_start',
  'string_end',
  'pass_statement',
  'break_statement',
  'continue_statement',
  'dotted_name',
]);

/** Walks `body` (a `block`); imports found inside are added to `localImports` and to the scope. */
export function bodyFacts(body: Node, outer: Scope, localImports: ImportBinding[]): BodyFacts {
  const walk = new BodyWalk(body, new Scope(outer), localImports);
  walk.run(body.row);
  const { raises, returns, calls, modelCopies, writes, bindings, attributeReads } = walk;
  return {
    raises,
    returns,
    calls,
    modelCopies,
    writes,
    bindings,
    attributeReads,
    canFallOffEnd: canFallOffEnd(body),
    isStub: isStub(body),
  };
}

const IN_EXCEPT = 1;
const AWAITED = 2;

/** One body's walk: the rows still to visit and the facts found so far. */
class BodyWalk {
  readonly raises: RaiseFacts[] = [];
  readonly returns: ReturnFacts[] = [];
  readonly calls: CallFacts[] = [];
  readonly modelCopies: ModelCopyFacts[] = [];
  readonly writes: AttributeWrite[] = [];
  readonly bindings: LocalBinding[] = [];
  readonly attributeReads: AttributeRead[] = [];
  /** Calls already described (raise/return values) so the walk reuses their facts. */
  private readonly seen = new Map<number, CallFacts>();
  /** The walk goes over the tree's rows; a node object is made only where facts are taken. */
  private readonly t: Node['tree'];
  /** The stack: a row times 4, plus 1 inside an except handler, plus 2 when awaited. */
  private readonly stack: number[] = [];
  /** Row spans run expecting a failure (pytest.raises, a try catching it): calls there are marked. */
  private readonly expecting: [number, number][] = [];

  constructor(
    body: Node,
    private readonly scope: Scope,
    private readonly localImports: ImportBinding[],
  ) {
    this.t = body.tree;
  }

  readonly describeCall = (n: Node, awaited: boolean): CallFacts => {
    let f = this.seen.get(n.id);
    if (!f) {
      f = callFacts(n, this.scope, awaited);
      this.seen.set(n.id, f);
    }
    return f;
  };

  run(bodyRow: number): void {
    const stack = this.stack;
    this.pushChildren(bodyRow, false);
    while (stack.length) {
      const item = stack.pop() as number;
      const row = item >>> 2;
      const inExcept = (item & IN_EXCEPT) !== 0;
      if (this.visit(row, inExcept, (item & AWAITED) !== 0)) this.pushChildren(row, inExcept);
    }
  }

  private pushChildren(row: number, inExcept: boolean): void {
    const { t, stack } = this;
    const from = stack.length;
    for (let c = row + 1, e = t.end[row] as number; c < e; c = t.end[c] as number) {
      if (!t.isNamedRow(c)) continue;
      const type = t.typeName(c);
      if (NOT_ENTERED.has(type) || OPAQUE.has(type)) continue;
      // Only f-strings can hold calls.
      if (type === 'string') {
        const at = t.startIndex[c] as number;
        if (!/^[rRbBuU]?[fF]|^[fF]/.test(t.text.slice(at, at + 3))) continue;
      }
      stack.push(c * 4 + (inExcept ? IN_EXCEPT : 0));
    }
    // Children were pushed in source order: reverse them so they pop in source order.
    for (let i = from, j = stack.length - 1; i < j; i++, j--) {
      const item = stack[i] as number;
      stack[i] = stack[j] as number;
      stack[j] = item;
    }
  }

  /** Takes a row's facts; true when its children are to be walked next. */
  private visit(row: number, inExcept: boolean, awaited: boolean): boolean {
    const t = this.t;
    const type = t.typeName(row);
    switch (type) {
      case 'import_statement':
      case 'import_from_statement':
      case 'future_import_statement':
        for (const binding of importBindings(t.node(row), false)) {
          this.localImports.push(binding);
          this.scope.add(binding);
        }
        return false;
      case 'except_clause':
      case 'except_group_clause':
        this.pushChildren(row, true);
        return false;
      case 'await':
        this.pushAwaited(row, inExcept);
        return false;
      case 'raise_statement':
        this.raises.push(raiseFacts(t.node(row), inExcept, this.scope, this.describeCall));
        return true;
      case 'return_statement':
        this.returns.push(returnFacts(t.node(row), this.scope, this.describeCall));
        return true;
      case 'with_statement':
      case 'try_statement': {
        const span = expectedFailureSpan(t.node(row));
        if (span) this.expecting.push(span);
        return true;
      }
      case 'call':
        this.addCall(row, awaited);
        return true;
      case 'attribute': {
        const read = attributeRead(t.node(row));
        if (read) this.attributeReads.push(read);
        return !read; // a chain of names holds nothing else to walk
      }
      default:
        this.addWritesAndBindings(row, type);
        return true;
    }
  }

  /** An await's first named child, awaited when it is a call. */
  private pushAwaited(row: number, inExcept: boolean): void {
    const t = this.t;
    for (let c = row + 1, e = t.end[row] as number; c < e; c = t.end[c] as number) {
      if (!t.isNamedRow(c)) continue;
      this.stack.push(c * 4 + (inExcept ? IN_EXCEPT : 0) + (t.typeName(c) === 'call' ? AWAITED : 0));
      return;
    }
  }

  private addCall(row: number, awaited: boolean): void {
    const n = this.t.node(row);
    const f = this.describeCall(n, awaited);
    if (awaited) f.awaited = true;
    if (this.expecting.some(([from, to]) => row > from && row < to)) f.expectedFailure = true;
    this.calls.push(f);
    callSideFacts(n, f, this.modelCopies, this.writes);
  }

  private addWritesAndBindings(row: number, type: string): void {
    const { writes, bindings } = this;
    switch (type) {
      case 'assignment':
      case 'augmented_assignment': {
        const n = this.t.node(row);
        const left = n.childForFieldName('left');
        if (left) targetWrites(left, type === 'assignment' ? 'assign' : 'augmented-assign', n, writes);
        if (left) bindingsOf(left, type === 'assignment' ? n.childForFieldName('right') : null, n, bindings);
        return;
      }
      case 'for_statement':
      case 'for_in_clause': {
        const n = this.t.node(row);
        const left = n.childForFieldName('left');
        if (left) bindingsOf(left, null, n, bindings);
        return;
      }
      case 'as_pattern':
      case 'named_expression': {
        const n = this.t.node(row);
        const target = type === 'as_pattern' ? n.childForFieldName('alias') : n.childForFieldName('name');
        if (target) bindingsOf(target, null, n, bindings);
        return;
      }
      case 'delete_statement': {
        const n = this.t.node(row);
        for (const target of n.namedChildren) if (target) targetWrites(target, 'delete', n, writes);
        return;
      }
    }
  }
}

function firstExpression(n: Node): Node | undefined {
  for (const c of n.namedChildren) if (c && c.type !== 'comment') return c;
  return undefined;
}

function raiseFacts(
  n: Node,
  inExceptHandler: boolean,
  scope: Scope,
  describeCall: (n: Node, awaited: boolean) => CallFacts,
): RaiseFacts {
  const cause = n.childForFieldName('cause');
  const exc = n.namedChildren.find((c) => c && c.type !== 'comment' && c.id !== cause?.id) ?? undefined;
  const facts: RaiseFacts = { range: rangeOf(n), isReraise: !exc, inExceptHandler };
  if (!exc) return facts;
  if (exc.type === 'call') {
    const call = describeCall(exc, false);
    return { ...facts, exception: call.callee, call };
  }
  const exception = scope.ref(exc);
  return exception ? { ...facts, exception } : facts;
}

function returnFacts(
  n: Node,
  scope: Scope,
  describeCall: (n: Node, awaited: boolean) => CallFacts,
): ReturnFacts {
  const v = firstExpression(n);
  if (!v) return { range: rangeOf(n), returnsNone: true, bare: true };
  const expr = v.type === 'await' ? (v.namedChild(0) ?? v) : v;
  const ref = scope.ref(expr);
  const call = expr.type === 'call' ? describeCall(expr, v.type === 'await') : undefined;
  return {
    range: rangeOf(n),
    returnsNone: v.type === 'none',
    bare: false,
    value: {
      text: v.text,
      range: rangeOf(v),
      ...(ref ? { ref } : {}),
      ...(call ? { call } : {}),
      nodeType: expr.type,
      literal: literalOf(expr),
    },
  };
}

/** `a.b.c` read on a name: root "a", path ["b", "c"]; undefined when a call or subscript is in the chain. */
function attributeRead(n: Node): AttributeRead | undefined {
  const names: Node[] = [];
  let cur: Node | null = n;
  while (cur && cur.type === 'attribute') {
    const a = cur.childForFieldName('attribute');
    if (!a) return undefined;
    names.push(a);
    cur = cur.childForFieldName('object');
  }
  if (!cur || cur.type !== 'identifier') return undefined;
  names.reverse();
  return { root: cur.text, path: names.map((a) => a.text), ranges: names.map(rangeOf) };
}

/** Names (and `self.x`) bound by a target; `value` only for a plain `name = value`. */
function bindingsOf(target: Node, value: Node | null, stmt: Node, out: LocalBinding[]): void {
  const single = target.type === 'identifier' || isSelfAttribute(target);
  if (single) {
    const v = value?.type === 'await' ? (value.namedChild(0) ?? value) : value;
    const callee = v?.type === 'call' ? v.childForFieldName('function')?.text : undefined;
    out.push({
      target: target.text.replace(/\s+/g, ''),
      range: rangeOf(stmt),
      ...(v && value?.type !== 'assignment'
        ? {
            value: {
              text: v.text.replace(/\s+/g, ''),
              nodeType: v.type,
              literal: literalOf(v),
              range: rangeOf(v),
              ...(callee ? { callee: callee.replace(/\s+/g, '') } : {}),
            },
          }
        : {}),
    });
    return;
  }
  // Unpacking (`a, b = …`): the names are bound, to values not known here. A subscript or other
  // attribute target binds no name.
  if (!UNPACKING.has(target.type)) return;
  for (const c of target.namedChildren) if (c) bindingsOf(c, null, stmt, out);
}

const UNPACKING = new Set([
  'pattern_list',
  'tuple_pattern',
  'list_pattern',
  'expression_list',
  'tuple',
  'list',
  'list_splat_pattern',
  'list_splat',
  'parenthesized_expression',
  'as_pattern_target',
]);

function isSelfAttribute(n: Node): boolean {
  return n.type === 'attribute' && n.childForFieldName('object')?.text === 'self';
}

/** A single `...` or `pass`, optionally after a docstring, or a docstring alone. */
function isStub(body: Node): boolean {
  const stmts = body.namedChildren.filter((c): c is Node => !!c && c.type !== 'comment');
  if (stmts.length === 1 && isDocstring(stmts[0])) return true;
  const rest = isDocstring(stmts[0]) ? stmts.slice(1) : stmts;
  const s = rest[0];
  if (rest.length !== 1 || !s) return false;
  if (s.type === 'pass_statement') return true;
  return s.type === 'expression_statement' && s.namedChildCount === 1 && s.namedChild(0)?.type === 'ellipsis';
}

function isDocstring(s: Node | undefined): boolean {
  return (
    !!s && s.type === 'expression_statement' && s.namedChildCount === 1 && s.namedChild(0)?.type === 'string'
  );
}
