// Import statements → ImportBinding, and resolving names through them.
import type { SyntaxNode as Node } from './syntax-node';
import { CAYU_EXPORTS, CAYU_MODULES, MANTLE_MODULE, isMantleExport } from '../catalogue';
import type { ImportBinding, NameRef } from './model';
import { dottedName, rangeOf } from './tree-utils';

/** Bindings made by one `import` / `from … import` / `from __future__ import` statement. */
/** Each name an import list binds: its node, and the alias it is bound to (`as`), if any. */
function importedNames(stmt: Node): { nameNode: Node; alias: string | undefined }[] {
  const out: { nameNode: Node; alias: string | undefined }[] = [];
  for (const n of stmt.childrenForFieldName('name')) {
    if (!n) continue;
    const nameNode = n.type === 'aliased_import' ? n.childForFieldName('name') : n;
    const alias = n.type === 'aliased_import' ? n.childForFieldName('alias')?.text : undefined;
    if (nameNode) out.push({ nameNode, alias });
  }
  return out;
}

/** `import a.b`, `import a.b as c`: bound to the first name, or to the alias (then the whole module). */
function plainImportBindings(stmt: Node, moduleLevel: boolean): ImportBinding[] {
  const statementRange = rangeOf(stmt);
  return importedNames(stmt).map(({ nameNode, alias }) => {
    const module = nameNode.text.replace(/\s+/g, '');
    const first = module.split('.')[0] ?? module;
    return {
      localName: alias ?? first,
      module,
      qualified: alias ? module : first,
      nameRange: rangeOf(nameNode),
      statementRange,
      parenthesized: false,
      isWildcard: false,
      moduleLevel,
    };
  });
}

export function importBindings(stmt: Node, moduleLevel: boolean): ImportBinding[] {
  if (stmt.type === 'import_statement') return plainImportBindings(stmt, moduleLevel);
  const isFuture = stmt.type === 'future_import_statement';
  if (!isFuture && stmt.type !== 'import_from_statement') return [];
  const statementRange = rangeOf(stmt);
  const moduleNode = isFuture ? undefined : stmt.childForFieldName('module_name');
  const module = isFuture ? '__future__' : (moduleNode?.text.replace(/\s+/g, '') ?? '');
  let parenthesized = false;
  let wildcard: Node | undefined;
  for (const c of stmt.children) {
    if (c?.type === '(') parenthesized = true;
    if (c?.type === 'wildcard_import') wildcard = c;
  }
  if (wildcard)
    return [
      {
        localName: '*',
        module,
        importedName: '*',
        qualified: `${module}.*`,
        nameRange: rangeOf(wildcard),
        statementRange,
        parenthesized,
        isWildcard: true,
        moduleLevel,
      },
    ];
  return importedNames(stmt).map(({ nameNode, alias }) => {
    const imported = nameNode.text;
    return {
      localName: alias ?? imported,
      module,
      importedName: imported,
      qualified: module.endsWith('.') ? `${module}${imported}` : `${module}.${imported}`,
      nameRange: rangeOf(nameNode),
      statementRange,
      parenthesized,
      isWildcard: false,
      moduleLevel,
    };
  });
}

/** Names a wildcard import of a known API module brings in (from the catalogue). */
function wildcardExports(module: string, name: string): boolean {
  if (module === MANTLE_MODULE) return isMantleExport(name);
  if (CAYU_MODULES.includes(module)) return CAYU_EXPORTS.includes(name);
  return false;
}

/** Maps local names to qualified names; later bindings win, like Python's own rebinding. */
export class Scope {
  private readonly names = new Map<string, string>();
  private readonly wildcards: string[] = [];

  constructor(private readonly parent?: Scope) {}

  add(b: ImportBinding): void {
    if (b.isWildcard) this.wildcards.push(b.module);
    else this.names.set(b.localName, b.qualified);
  }

  /** Qualified name for a dotted name whose first segment is bound by an import. */
  qualify(dotted: string): string | undefined {
    const dot = dotted.indexOf('.');
    const first = dot < 0 ? dotted : dotted.slice(0, dot);
    const rest = dot < 0 ? '' : dotted.slice(dot);
    const bound = this.lookup(first);
    return bound === undefined ? undefined : bound + rest;
  }

  private lookup(name: string): string | undefined {
    const own = this.names.get(name);
    if (own !== undefined) return own;
    for (const m of this.wildcards) if (wildcardExports(m, name)) return `${m}.${name}`;
    return this.parent?.lookup(name);
  }

  /** A NameRef for an identifier/attribute node; undefined when it is no dotted name. */
  ref(node: Node): NameRef | undefined {
    const text = dottedName(node);
    if (text === undefined) return undefined;
    const qualified = this.qualify(text);
    return { text, range: rangeOf(node), ...(qualified !== undefined ? { qualified } : {}) };
  }

  /** Like ref(), but for any expression: text as written, resolved only when dotted. */
  refOrText(node: Node): NameRef {
    return this.ref(node) ?? { text: node.text, range: rangeOf(node) };
  }
}
