// Module-level names bound exactly once, directly in the module body, to a string literal
// (`EVENT_TYPE = "custom.audit"`): a rule may read such a name where it would read the literal.
// Any other module-level binding of the name (a second assignment, `+=`, an import, a def or
// class, a `global` statement anywhere) leaves it out: its value is then not known.
import type { SyntaxNode as Node } from './syntax-node';
import { literalOf } from './tree-utils';

const DEF_TYPES = new Set(['function_definition', 'class_definition', 'decorated_definition']);

/** The name a module-level statement binds, and the string it binds it to (when one). */
function binding(s: Node): { name: string; value?: string } | undefined {
  if (DEF_TYPES.has(s.type)) {
    const def = s.type === 'decorated_definition' ? s.childForFieldName('definition') : s;
    const name = def?.childForFieldName('name')?.text;
    return name ? { name } : undefined;
  }
  if (s.type !== 'expression_statement') return undefined;
  const a = s.namedChild(0);
  if (a?.type !== 'assignment' && a?.type !== 'augmented_assignment') return undefined;
  const left = a.childForFieldName('left');
  if (left?.type !== 'identifier') return undefined;
  const right = a.childForFieldName('right');
  const value = a.type === 'assignment' && right ? literalOf(right) : undefined;
  return { name: left.text, ...(value?.kind === 'string' ? { value: value.value } : {}) };
}

export function moduleStringConstants(
  root: Node,
  text: string,
  imports: readonly { localName: string }[],
): Record<string, string> | undefined {
  const values = new Map<string, string | undefined>();
  const rebound = new Set(imports.map((b) => b.localName));
  for (const s of root.namedChildren) {
    const b = s && binding(s);
    if (!b) continue;
    if (values.has(b.name)) rebound.add(b.name);
    values.set(b.name, b.value);
  }
  // `global NAME` in a function: the name may be rebound when that function runs.
  const globals = text.includes('global') ? text.match(/\bglobal\b[^\n]*/g)?.join('\n') : undefined;
  const out: Record<string, string> = {};
  for (const [name, value] of values)
    if (value !== undefined && !rebound.has(name) && !globals?.match(new RegExp(`\\b${name}\\b`)))
      out[name] = value;
  return Object.keys(out).length ? out : undefined;
}
