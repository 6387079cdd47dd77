// Hovers inside Cayu hook code, as Mantle payload fields have them: `context.tool_name` (a
// context property), `context.result.is_error` (a ToolResult field), a decision's keywords
// (`action=`, `block_reason=`, `modified_result=`, …) and its `action="…"` values. Plus the
// Mantle `payload.model_copy(update={"text": …})` keys. All text from the catalogue.
import {
  CAYU_CONTEXT_PROPERTY_DOCS,
  CAYU_TOOL_RESULT_FIELDS,
  allFields,
  findCayuContext,
  findCayuDecision,
  type CayuDecision,
} from '../../runtime/catalogue';
import type { HookModule, Position } from '../../runtime/python/model';
import type { Node } from '../../runtime/python/parser';
import { contextParameter, phaseMethods } from '../../runtime/python/hooks';
import { enclosingFunction, hookPayloadType, payloadTypeOf } from './context';
import { payloadHover } from './hover-text';

/** `context.<property>` or `context.result.<field>` in a phase method. */
export function cayuAttributeHover(model: HookModule, pos: Position, node: Node): string | undefined {
  const parent = node.parent;
  if (parent?.type !== 'attribute' || parent.childForFieldName('attribute')?.id !== node.id) return undefined;
  const object = parent.childForFieldName('object');
  const fn = enclosingFunction(model, pos);
  const phase = fn && phaseMethods(model).find((m) => m.method === fn);
  const param = fn && contextParameter(fn);
  if (!object || !phase || !param) return undefined;
  const context = findCayuContext(phase.phase.context);
  if (!context) return undefined;
  if (object.type === 'identifier' && object.text === param.name) {
    const type = context.properties[node.text];
    if (!type) return undefined;
    const doc = CAYU_CONTEXT_PROPERTY_DOCS[node.text] ?? '';
    return [
      `**${context.name}.${node.text}**: \`${type}\` — read-only`,
      '',
      doc,
      '',
      '---',
      '',
      context.doc,
    ].join('\n');
  }
  const isResult =
    object.type === 'attribute' &&
    object.childForFieldName('attribute')?.text === 'result' &&
    object.childForFieldName('object')?.text === param.name &&
    'result' in context.properties;
  const field = CAYU_TOOL_RESULT_FIELDS[node.text];
  if (isResult && field)
    return `**ToolResult.${node.text}**: \`${field}\` — frozen\n\n${context.properties.result}`;
  return undefined;
}

/** The decision a call constructs (`BeforeToolCallDecision(...)`, `obs.AfterToolCallDecision(...)`). */
function decisionOfCall(call: Node | null): CayuDecision | undefined {
  if (call?.type !== 'call') return undefined;
  const fn = call.childForFieldName('function');
  const name = fn?.type === 'attribute' ? fn.childForFieldName('attribute')?.text : fn?.text;
  return name ? findCayuDecision(name) : undefined;
}

/** A keyword of a decision call, or the string value of its `action=`. */
export function cayuDecisionHover(node: Node): string | undefined {
  const keyword = node.parent;
  if (keyword?.type === 'keyword_argument' && keyword.childForFieldName('name')?.id === node.id) {
    const decision = decisionOfCall(keyword.parent?.parent ?? null);
    if (!decision) return undefined;
    if (node.text === 'action') {
      const rows = decision.actions.map(
        (a) => `- \`"${a.action}"\`${a.companion ? ` (needs \`${a.companion}\`)` : ''}: ${a.doc}`,
      );
      return [`**${decision.name}.action**`, '', ...rows].join('\n');
    }
    const type = decision.fields[node.text];
    const owner = decision.actions.find((a) => a.companion === node.text);
    if (!type || !owner) return undefined;
    return `**${decision.name}.${node.text}**: \`${type}\`\n\nRequired by, and valid only with, \`action="${owner.action}"\`: ${owner.doc}`;
  }
  const string = stringOf(node);
  const kw = string?.parent;
  if (!string || kw?.type !== 'keyword_argument' || kw.childForFieldName('name')?.text !== 'action')
    return undefined;
  const decision = decisionOfCall(kw.parent?.parent ?? null);
  const value = string.text.replace(/^[rbuRBU]*["']|["']$/g, '');
  const action = decision?.actions.find((a) => a.action === value);
  if (!decision || !action) return undefined;
  return `**\`"${action.action}"\`** — ${decision.name}\n\n${action.doc}${action.companion ? `\n\nRequires \`${action.companion}\`.` : ''}`;
}

function stringOf(node: Node): Node | undefined {
  let n: Node | null = node;
  for (let i = 0; n && i < 3; i++, n = n.parent) if (n.type === 'string') return n;
  return undefined;
}

/** A key of `payload.model_copy(update={"text": …})`: the payload field it updates. */
export function modelCopyKeyHover(model: HookModule, pos: Position, node: Node): string | undefined {
  const string = stringOf(node);
  const pair = string?.parent;
  if (!string || pair?.type !== 'pair' || pair.childForFieldName('key')?.id !== string.id) return undefined;
  const dict = pair.parent;
  const kw = dict?.parent;
  const call = kw?.type === 'keyword_argument' ? kw.parent?.parent : dict?.parent?.parent;
  if (dict?.type !== 'dictionary' || call?.type !== 'call') return undefined;
  if (kw?.type === 'keyword_argument' && kw.childForFieldName('name')?.text !== 'update') return undefined;
  const callee = call.childForFieldName('function');
  if (callee?.type !== 'attribute' || callee.childForFieldName('attribute')?.text !== 'model_copy')
    return undefined;
  const fn = enclosingFunction(model, pos);
  if (!fn) return undefined;
  const object = callee.childForFieldName('object');
  const type =
    (object?.type === 'identifier' ? payloadTypeOf(model, fn, object.text) : undefined) ??
    hookPayloadType(model, fn);
  const key = string.text.replace(/^[rbuRBU]*["']|["']$/g, '');
  if (!type || !allFields(type).some((f) => f.name === key)) return undefined;
  return payloadHover(type, key);
}
