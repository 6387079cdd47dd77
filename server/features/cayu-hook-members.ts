// The RuntimeHook properties a subclass may override (`execution_profile_identity`, `name`; the
// catalogue's CAYU_HOOK_PROPERTIES): a hover on the overriding `def` or on `self.<property>` in a
// hook class, and completion of `def <prefix>` in a hook class body (with its `@property`) and
// of `self.<prefix>` in a hook method. The phase methods have hovers of their own (hover.ts).
import {
  CompletionItemKind,
  InsertTextFormat,
  MarkupKind,
  type CompletionItem,
  type Position,
} from 'vscode-languageserver';
import { CAYU_HOOK_PROPERTIES, findCayuHookProperty, type CayuHookProperty } from '../../runtime/catalogue';
import { cayuHookClasses } from '../../runtime/python/hooks';
import type { HookModule } from '../../runtime/python/model';
import type { Node } from '../../runtime/python/parser';
import { enclosingFunction } from './context';

export function hookPropertyText(p: CayuHookProperty): string {
  return [`**RuntimeHook.${p.name}**: \`${p.type}\` — property (${p.since} and later)`, '', p.doc].join('\n');
}

const hookClassNames = (model: HookModule) => new Set(cayuHookClasses(model).map((c) => c.cls.name));

/** `def execution_profile_identity` in a hook class, or `self.execution_profile_identity` in its methods. */
export function hookPropertyHover(model: HookModule, pos: Position, node: Node): string | undefined {
  const property = findCayuHookProperty(node.text);
  const parent = node.parent;
  if (!property || !parent) return undefined;
  const names = hookClassNames(model);
  if (parent.type === 'function_definition' && parent.childForFieldName('name')?.id === node.id) {
    const cls = cayuHookClasses(model).find((c) =>
      c.cls.methods.some((m) => m.name === node.text && m.nameRange.start.line === pos.line),
    );
    return cls ? hookPropertyText(property) : undefined;
  }
  if (parent.type === 'attribute' && parent.childForFieldName('attribute')?.id === node.id) {
    const object = parent.childForFieldName('object');
    const fn = enclosingFunction(model, pos);
    if (object?.type === 'identifier' && object.text === 'self' && fn?.className && names.has(fn.className))
      return hookPropertyText(property);
  }
  return undefined;
}

/** The hook class whose body the cursor's line is in (by indentation: the line may not parse yet). */
function classBodyAt(model: HookModule, text: string, line: number): string | undefined {
  const lines = text.split('\n');
  const indent = (s: string) => /^\s*/.exec(s)![0].length;
  const own = indent(lines[line] ?? '');
  for (let i = line - 1; i >= 0; i--) {
    const l = lines[i]!;
    if (!l.trim() || indent(l) >= own) continue;
    const m = /^\s*class\s+([A-Za-z_]\w*)/.exec(l);
    return m && hookClassNames(model).has(m[1]!) ? m[1] : undefined;
  }
  return undefined;
}

export function hookPropertyCompletions(
  model: HookModule,
  text: string,
  line: string,
  pos: Position,
): CompletionItem[] | undefined {
  const def = /^(\s+)def\s+(\w*)$/.exec(line);
  if (def && classBodyAt(model, text, pos.line)) {
    const indent = def[1]!;
    const range = { start: { line: pos.line, character: indent.length }, end: pos };
    return CAYU_HOOK_PROPERTIES.map((p, i) => ({
      label: p.name,
      kind: CompletionItemKind.Property,
      detail: `RuntimeHook property: ${p.type} (${p.since} and later)`,
      documentation: { kind: MarkupKind.Markdown, value: hookPropertyText(p) },
      sortText: String(i).padStart(2, '0'),
      filterText: `def ${p.name}`,
      insertTextFormat: InsertTextFormat.Snippet,
      // A property in RuntimeHook: a plain method would hand the runtime a bound method instead.
      textEdit: {
        range,
        newText: `@property\n${indent}def ${p.name}(self):\n${indent}    \${0:return None}`,
      },
    }));
  }
  const self = /\bself\.(\w*)$/.exec(line);
  const fn = self && enclosingFunction(model, pos, true);
  if (self && fn?.className && hookClassNames(model).has(fn.className)) {
    const word = self[1]!;
    return CAYU_HOOK_PROPERTIES.map((p, i) => ({
      label: p.name,
      kind: CompletionItemKind.Property,
      detail: `${p.type} · RuntimeHook property`,
      documentation: { kind: MarkupKind.Markdown, value: hookPropertyText(p) },
      sortText: String(i).padStart(2, '0'),
      textEdit: {
        range: { start: { line: pos.line, character: pos.character - word.length }, end: pos },
        newText: p.name,
      },
    }));
  }
  return undefined;
}
