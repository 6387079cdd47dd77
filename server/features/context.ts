// What is under or before the cursor: the tree node, the enclosing function of the model,
// and the payload type a name stands for. Shared by hover and completion; tolerant of
// half-typed code (the model comes from a tree with error nodes).
import { findPayloadType, type PayloadType } from '../../runtime/catalogue';
import type { FunctionDef, HookModule, Position, Range } from '../../runtime/python/model';
import type { Node, Tree } from '../../runtime/python/parser';
import { mantleHooks } from '../../runtime/python/hooks';

export function contains(r: Range, p: Position): boolean {
  const afterStart = p.line > r.start.line || (p.line === r.start.line && p.character >= r.start.character);
  const beforeEnd = p.line < r.end.line || (p.line === r.end.line && p.character <= r.end.character);
  return afterStart && beforeEnd;
}

export function nodeAt(tree: Tree, p: Position): Node | null {
  return tree.rootNode.descendantForPosition({ row: p.line, column: p.character });
}

/**
 * The function (or method) around `p`. Half-typed code often ends a function's range before
 * the cursor (the line being typed is an error node), so with `indented` the nearest function
 * above the cursor counts too.
 */
export function enclosingFunction(
  module: HookModule,
  p: Position,
  indented = false,
): FunctionDef | undefined {
  const all = [...module.functions, ...module.classes.flatMap((c) => c.methods)];
  let best: FunctionDef | undefined;
  for (const fn of all)
    if (contains(fn.range, p) && (!best || contains(best.range, fn.range.start))) best = fn;
  if (best || !indented) return best;
  for (const fn of all) {
    const above = fn.range.start.line <= p.line;
    if (above && (!best || fn.range.start.line > best.range.start.line)) best = fn;
  }
  return best;
}

/** The catalogue payload type named by `text` ("ToolCallPayload", "mh.ToolCallPayload"). */
export function payloadTypeNamed(text: string | undefined): PayloadType | undefined {
  if (!text) return undefined;
  return findPayloadType(text.slice(text.lastIndexOf('.') + 1));
}

/**
 * The payload type of a parameter `name` of `fn`: its annotation (also `X | None`), or, for
 * the payload parameter of a Mantle hook, the hook's payload type.
 */
export function payloadTypeOf(module: HookModule, fn: FunctionDef, name: string): PayloadType | undefined {
  const param = fn.parameters.find((p) => p.name === name);
  if (!param) return undefined;
  const a = param.annotation;
  const annotated = payloadTypeNamed(a?.optionalOf?.text ?? a?.ref?.text ?? a?.text);
  if (annotated) return annotated;
  const hook = mantleHooks(module).find((h) => h.fn === fn);
  if (hook && fn.parameters[0] === param) return hook.payload;
  return undefined;
}

/** The payload type of the hook `fn` itself (for `model_copy` on a local copy of the payload). */
export function hookPayloadType(module: HookModule, fn: FunctionDef): PayloadType | undefined {
  return mantleHooks(module).find((h) => h.fn === fn)?.payload;
}
