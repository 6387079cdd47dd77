// Hover: a decorator, a payload type name, a payload field access, a Cayu phase method,
// context or decision type → Markdown from the catalogue.
import { MarkupKind, type Hover, type HoverParams } from 'vscode-languageserver';
import { findCayuPhase } from '../../runtime/catalogue';
import { mantleHooks, phaseMethods } from '../../runtime/python/hooks';
import { rangeOf } from '../../runtime/python/tree-utils';
import type { Analyser } from '../analyser';
import { contains, enclosingFunction, nodeAt, payloadTypeNamed, payloadTypeOf } from './context';
import type { WiringSource } from '../../runtime/catalogue/wiring';
import { cayuAttributeHover, cayuDecisionHover, modelCopyKeyHover } from './hover-cayu';
import { hookPropertyHover } from './cayu-hook-members';
import { cayuPhaseHover, cayuTypeHover, decoratorHover, payloadHover, ruleHover } from './hover-text';

/** `wiring`: the installed engine and the setting, as the not-wired rule is told. */
export function hover(analyser: Analyser, p: HoverParams, wiring?: WiringSource): Hover | null {
  const cur = analyser.current(p.textDocument.uri);
  if (!cur) return null;
  const found = symbolHover(analyser, p, wiring);
  // A hover on a diagnostic carries its rule's short text (VS Code shows the message itself).
  const rules = ruleHover(
    cur.state.diagnostics.filter((d) => contains(d.range, p.position)).map((d) => d.code),
  );
  if (!rules) return found;
  if (!found) return md(rules, undefined);
  const value = typeof found.contents === 'object' && 'value' in found.contents ? found.contents.value : '';
  return md(`${rules}\n\n---\n\n${value}`, found.range);
}

function symbolHover(analyser: Analyser, p: HoverParams, wiring?: WiringSource): Hover | null {
  const cur = analyser.current(p.textDocument.uri);
  if (!cur) return null;
  const { state, tree } = cur;
  const pos = p.position;
  const model = state.model;

  const hook = mantleHooks(model).find((h) => contains(h.decorator.range, pos));
  if (hook) return md(decoratorHover(hook.hook, hook.timeoutMs, wiring), hook.decorator.range);

  const node = nodeAt(tree, pos);
  if (!node) return null;
  if (node.type !== 'identifier') {
    // Strings: `action="block"`, `model_copy(update={"text": …})` keys.
    const text = cayuDecisionHover(node) ?? modelCopyKeyHover(model, pos, node);
    const string = text ? stringNode(node) : undefined;
    return text && string ? md(text, rangeOf(string)) : null;
  }
  const range = rangeOf(node);
  const cayuText = cayuAttributeHover(model, pos, node) ?? cayuDecisionHover(node);
  if (cayuText) return md(cayuText, range);
  const parent = node.parent;

  // `payload.tool_name`: the attribute of an object typed with a payload.
  if (parent?.type === 'attribute' && parent.childForFieldName('attribute')?.id === node.id) {
    const object = parent.childForFieldName('object');
    const fn = enclosingFunction(model, pos);
    if (object?.type === 'identifier' && fn) {
      const type = payloadTypeOf(model, fn, object.text);
      if (type) return md(payloadHover(type, node.text), range);
    }
  }

  const type = payloadTypeNamed(node.text);
  if (type) return md(payloadHover(type), range);

  const property = hookPropertyHover(model, pos, node);
  if (property) return md(property, range);

  const phase = phaseMethods(model).find((m) => contains(m.method.nameRange, pos));
  if (phase) return md(cayuPhaseHover(phase.phase), range);
  if (parent?.type === 'function_definition' && findCayuPhase(node.text) && state.engine === 'cayu') {
    return md(cayuPhaseHover(findCayuPhase(node.text)!), range);
  }

  const cayu = cayuTypeHover(node.text);
  if (cayu) return md(cayu, range);
  return null;
}

function stringNode(node: NonNullable<ReturnType<typeof nodeAt>>): typeof node | undefined {
  let n: typeof node | null = node;
  for (let i = 0; n && i < 3; i++, n = n.parent) if (n.type === 'string') return n;
  return undefined;
}

function md(value: string, range: Hover['range']): Hover {
  return range
    ? { contents: { kind: MarkupKind.Markdown, value }, range }
    : { contents: { kind: MarkupKind.Markdown, value } };
}
