// A def's parameter list → Parameters (kinds, annotations, defaults).
import type { SyntaxNode as Node } from './syntax-node';
import type { Parameter, ParameterKind } from './model';
import type { Scope } from './imports';
import { annotationOf } from './expressions';
import { rangeOf } from './tree-utils';

export function parametersOf(params: Node, scope: Scope): Parameter[] {
  const out: Parameter[] = [];
  let afterStar = false;
  for (const p of params.namedChildren) {
    if (!p || p.type === 'comment') continue;
    if (p.type === 'positional_separator') {
      // Everything before `/` is positional-only.
      for (const q of out) if (q.kind === 'positional') q.kind = 'positional-only';
      continue;
    }
    if (p.type === 'keyword_separator') {
      afterStar = true;
      continue;
    }
    let nameNode: Node | null;
    let kind: ParameterKind = afterStar ? 'keyword-only' : 'positional';
    const typeNode = p.childForFieldName('type');
    let hasDefault = false;
    switch (p.type) {
      case 'identifier':
        nameNode = p;
        break;
      case 'default_parameter':
      case 'typed_default_parameter':
        nameNode = p.childForFieldName('name');
        hasDefault = true;
        break;
      case 'typed_parameter': {
        const inner = p.namedChild(0);
        if (inner?.type === 'list_splat_pattern' || inner?.type === 'dictionary_splat_pattern') {
          kind = inner.type === 'list_splat_pattern' ? 'var-positional' : 'var-keyword';
          nameNode = inner.namedChild(0);
        } else nameNode = inner;
        break;
      }
      case 'list_splat_pattern':
        kind = 'var-positional';
        nameNode = p.namedChild(0);
        break;
      case 'dictionary_splat_pattern':
        kind = 'var-keyword';
        nameNode = p.namedChild(0);
        break;
      default:
        continue;
    }
    if (kind === 'var-positional') afterStar = true;
    if (!nameNode) continue;
    out.push({
      name: nameNode.text,
      range: rangeOf(p),
      nameRange: rangeOf(nameNode),
      kind,
      ...(typeNode ? { annotation: annotationOf(typeNode, scope) } : {}),
      hasDefault,
    });
  }
  return out;
}
