// Expressions the model describes: call arguments and type annotations.
import type { SyntaxNode as Node } from './syntax-node';
import type { Annotation, CallFacts, KeywordArgument, NameRef, Range } from './model';
import type { Scope } from './imports';
import { parse } from './parser';
import { toSyntaxTree } from './syntax-tree';
import { literalOf, positionOf, rangeOf, stringValue } from './tree-utils';

/** Facts of a `call` node. */
export function callFacts(call: Node, scope: Scope, awaited: boolean): CallFacts {
  const fn = call.childForFieldName('function');
  const callee: NameRef = fn ? scope.refOrText(fn) : { text: '', range: rangeOf(call) };
  const positional: CallFacts['positional'] = [];
  const keywords: KeywordArgument[] = [];
  let hasStarArgs = false;
  const args = call.childForFieldName('arguments');
  if (args && args.type === 'argument_list') {
    for (const a of args.namedChildren) {
      if (!a || a.type === 'comment') continue;
      if (a.type === 'keyword_argument') {
        const name = a.childForFieldName('name');
        const value = a.childForFieldName('value');
        if (!name || !value) continue;
        keywords.push({
          name: name.text,
          range: rangeOf(a),
          nameRange: rangeOf(name),
          value: literalOf(value),
          valueRange: rangeOf(value),
        });
      } else if (a.type === 'list_splat' || a.type === 'dictionary_splat') {
        hasStarArgs = true;
      } else {
        positional.push({ value: literalOf(a), range: rangeOf(a) });
      }
    }
  } else if (args) {
    // `f(x for x in y)`: a generator argument.
    positional.push({ value: literalOf(args), range: rangeOf(args) });
  }
  return { callee, range: rangeOf(call), positional, keywords, hasStarArgs, awaited };
}

const OPTIONAL_NAMES = new Set(['Optional', 'typing.Optional', 'typing_extensions.Optional']);
const UNION_NAMES = new Set(['Union', 'typing.Union', 'typing_extensions.Union']);

/** Describes an annotation node (the `type` node of a parameter or return). */
export function annotationOf(typeNode: Node, scope: Scope): Annotation {
  const expr = typeNode.type === 'type' ? (typeNode.namedChild(0) ?? typeNode) : typeNode;
  if (expr.type === 'string') {
    const content = stringValue(expr);
    const inner = content === undefined ? undefined : contentStart(expr);
    const base: Annotation = {
      text: content ?? expr.text,
      range: rangeOf(typeNode),
      isString: true,
      isNone: false,
    };
    if (content === undefined || !inner || /[\r\n]/.test(content) || content.trim() === '') return base;
    return { ...base, ...describeStringAnnotation(content, inner, scope) };
  }
  return {
    text: expr.text,
    range: rangeOf(typeNode),
    isString: false,
    ...describe(expr, scope, { line: 0, character: 0 }),
  };
}

type Described = Pick<Annotation, 'ref' | 'optionalOf' | 'isNone'>;
interface Offset {
  line: number;
  character: number;
}

/** Parses the text of a string annotation as an expression and maps its ranges back into the file. */
function describeStringAnnotation(content: string, at: Offset, scope: Scope): Described {
  let tree;
  try {
    tree = parse(content);
  } catch {
    return { isNone: false };
  }
  let syntax;
  try {
    // The SyntaxTree holds no reference into WASM: the tree is freed at once.
    syntax = toSyntaxTree(tree, content);
  } finally {
    tree.delete();
  }
  try {
    const root = syntax.rootNode;
    const stmt = root.namedChild(0);
    if (root.hasError || root.namedChildCount !== 1 || stmt?.type !== 'expression_statement')
      return { isNone: false };
    const e = stmt.namedChild(0);
    return e ? describe(e, scope, at) : { isNone: false };
  } finally {
    syntax.release();
  }
}

function contentStart(str: Node): Offset | undefined {
  const start = str.child(0);
  if (!start || start.type !== 'string_start') return undefined;
  return positionOf(start, 'end');
}

function shift(r: Range, at: Offset): Range {
  const mv = (p: Range['start']) =>
    p.line === 0
      ? { line: at.line, character: at.character + p.character }
      : { line: at.line + p.line, character: p.character };
  return { start: mv(r.start), end: mv(r.end) };
}

function refAt(node: Node, scope: Scope, at: Offset): NameRef | undefined {
  const r = scope.ref(node);
  return r && { ...r, range: shift(r.range, at) };
}

function isNoneNode(n: Node): boolean {
  return n.type === 'none' || (n.type === 'type' && n.namedChild(0)?.type === 'none');
}

function unwrapType(n: Node): Node {
  return n.type === 'type' ? (n.namedChild(0) ?? n) : n;
}

function describe(expr: Node, scope: Scope, at: Offset): Described {
  const e = unwrapType(expr);
  if (e.type === 'none') return { isNone: true };
  if (e.type === 'identifier' || e.type === 'attribute') {
    const ref = refAt(e, scope, at);
    return { isNone: false, ...(ref ? { ref } : {}) };
  }
  const union = unionMembers(e, scope);
  if (union) {
    const notNone = union.nodes.filter((m) => !isNoneNode(m));
    const hasNone = union.optional || notNone.length < union.nodes.length;
    if (notNone.length === 1 && hasNone && notNone[0]) {
      const inner = unwrapType(notNone[0]);
      const optionalOf = refAt(inner, scope, at);
      return { isNone: false, ...(optionalOf ? { optionalOf } : {}) };
    }
  }
  // Generic like `list[X]`: its ref is the generic's name.
  const head = genericHead(e);
  const ref = head ? refAt(head, scope, at) : undefined;
  return { isNone: false, ...(ref ? { ref } : {}) };
}

/** Members of `A | B`, `Union[A, B]`, or `Optional[A]` (optional: None implied); undefined otherwise. */
function unionMembers(e: Node, scope: Scope): { nodes: Node[]; optional: boolean } | undefined {
  if (e.type === 'binary_operator' && e.childForFieldName('operator')?.text === '|') {
    const out: Node[] = [];
    const stack: Node[] = [e];
    while (stack.length) {
      const n = unwrapType(stack.pop() as Node);
      if (n.type === 'binary_operator' && n.childForFieldName('operator')?.text === '|') {
        const l = n.childForFieldName('left');
        const r = n.childForFieldName('right');
        if (r) stack.push(r);
        if (l) stack.push(l);
      } else out.push(n);
    }
    return { nodes: out, optional: false };
  }
  const head = genericHead(e);
  if (!head) return undefined;
  const name = head.text.replace(/\s+/g, '');
  const qualified = scope.qualify(name) ?? name;
  const args = genericArgs(e);
  if (OPTIONAL_NAMES.has(name) || OPTIONAL_NAMES.has(qualified))
    return args.length === 1 ? { nodes: args, optional: true } : undefined;
  if (UNION_NAMES.has(name) || UNION_NAMES.has(qualified)) return { nodes: args, optional: false };
  return undefined;
}

/** `X` in `X[...]` (generic_type or subscript). */
function genericHead(e: Node): Node | undefined {
  if (e.type === 'generic_type') return e.namedChild(0) ?? undefined;
  if (e.type === 'subscript') return e.childForFieldName('value') ?? undefined;
  return undefined;
}

function genericArgs(e: Node): Node[] {
  const out: Node[] = [];
  if (e.type === 'generic_type') {
    const tp = e.namedChildren.find((c) => c?.type === 'type_parameter');
    for (const c of tp?.namedChildren ?? []) if (c) out.push(c);
  } else if (e.type === 'subscript') {
    for (const c of e.childrenForFieldName('subscript')) {
      if (!c) continue;
      if (c.type === 'tuple') {
        for (const t of c.namedChildren) if (t) out.push(t);
      } else out.push(c);
    }
  }
  return out;
}
