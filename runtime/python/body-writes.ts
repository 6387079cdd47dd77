// What a function body writes, for body-facts.ts: attribute and subscript targets of assignments
// and deletes, in-place mutating calls (`x.append(…)`), and `model_copy` calls with their update.
import type { SyntaxNode as Node } from './syntax-node';
import type { AttributeWrite, CallFacts, ModelCopyFacts, WriteKind } from './model';
import { rangeOf } from './tree-utils';

/** Methods that mutate a list, dict or set in place. */
export const MUTATING_METHODS: ReadonlySet<string> = new Set([
  'append',
  'extend',
  'insert',
  'remove',
  'pop',
  'clear',
  'update',
  'setdefault',
  'popitem',
  'add',
  'discard',
  'sort',
  'reverse',
  '__setitem__',
  '__delitem__',
]);

/** Root and attribute path of a target like `payload.a[0].b`; undefined when the root is no name. */
function rootPath(n: Node): { root: string; path: string[] } | undefined {
  const path: string[] = [];
  let cur: Node | null = n;
  while (cur) {
    if (cur.type === 'identifier') return { root: cur.text, path: path.reverse() };
    if (cur.type === 'attribute') {
      const a = cur.childForFieldName('attribute');
      if (a) path.push(a.text);
      cur = cur.childForFieldName('object');
    } else if (cur.type === 'subscript') {
      cur = cur.childForFieldName('value');
    } else if (cur.type === 'parenthesized_expression') {
      cur = cur.namedChild(0);
    } else return undefined;
  }
  return undefined;
}

export function targetWrites(
  t: Node,
  kind: 'assign' | 'augmented-assign' | 'delete',
  stmt: Node,
  writes: AttributeWrite[],
): void {
  const stack: Node[] = [t];
  while (stack.length) {
    const n = stack.pop() as Node;
    if (
      n.type === 'pattern_list' ||
      n.type === 'tuple_pattern' ||
      n.type === 'list_pattern' ||
      n.type === 'expression_list' ||
      n.type === 'tuple' ||
      n.type === 'list'
    ) {
      for (const c of n.namedChildren) if (c) stack.push(c);
      continue;
    }
    if (n.type === 'list_splat_pattern' || n.type === 'list_splat' || n.type === 'parenthesized_expression') {
      const c = n.namedChild(0);
      if (c) stack.push(c);
      continue;
    }
    let wk: WriteKind;
    if (n.type === 'attribute') wk = kind;
    else if (n.type === 'subscript')
      wk =
        kind === 'delete' ? 'subscript-delete' : kind === 'assign' ? 'subscript-assign' : 'augmented-assign';
    else continue;
    const rp = rootPath(n);
    if (rp)
      writes.push({
        root: rp.root,
        path: rp.path,
        kind: wk,
        range: rangeOf(stmt.type === 'delete_statement' ? n : stmt),
      });
  }
}

export function callSideFacts(
  call: Node,
  facts: CallFacts,
  modelCopies: ModelCopyFacts[],
  writes: AttributeWrite[],
): void {
  // Cheap test on the callee text first: most calls are neither model_copy nor mutating.
  const calleeText = facts.callee.text;
  const dot = calleeText.lastIndexOf('.');
  if (dot < 0) return;
  const method = calleeText.slice(dot + 1);
  if (method !== 'model_copy' && !MUTATING_METHODS.has(method)) return;
  const fn = call.childForFieldName('function');
  const obj = fn?.type === 'attribute' ? fn.childForFieldName('object') : null;
  if (!obj) return;
  if (method === 'model_copy') {
    // `update={...}` literal (its entries come from the call's facts), else dynamic.
    const update = facts.keywords.find((k) => k.name === 'update');
    const updateEntries = update?.value.kind === 'dict' ? update.value.entries : undefined;
    const updateIsDynamic = (update !== undefined && !updateEntries) || facts.hasStarArgs;
    modelCopies.push({
      range: rangeOf(call),
      receiver: obj.text,
      ...(updateEntries ? { updateEntries } : {}),
      updateIsDynamic,
    });
    return;
  }
  if (!MUTATING_METHODS.has(method)) return;
  const rp = rootPath(obj);
  if (rp) writes.push({ root: rp.root, path: rp.path, kind: 'mutating-call', method, range: rangeOf(call) });
}
