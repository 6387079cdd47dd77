// The import paths of the selected Cayu line (catalogue/cayu-lines.ts): a hook-API name, ToolResult
// or Event imported from a module of the other layout raises ImportError on the line the installed
// cayu speaks (`from cayu.observability import RuntimeHook` on cayu 0.3, `from cayu.runtime.hooks
// import …` on 0.9 and newer). With no line chosen, every public path of both layouts is accepted.
import {
  CAYU_EXPORTS,
  CAYU_LINES,
  activeCayuLine,
  canonicalModule,
  cayuNameKind,
  modulesOf,
  type CayuLine,
  type CayuNameKind,
} from '../../catalogue';
import type { ImportBinding } from '../../python/model';

/** The names whose home the lines describe (other cayu names are left to the interpreter). */
const LAYOUT_NAMES = new Set([...CAYU_EXPORTS, 'Event', 'EventType']);

const KINDS: readonly CayuNameKind[] = ['hooks', 'toolResult', 'events'];

/** Every module some line puts a kind of name in (cayu itself excepted: a package, never absent). */
function layoutKindOf(module: string): CayuNameKind | undefined {
  if (module === 'cayu') return undefined;
  for (const line of CAYU_LINES)
    for (const kind of KINDS) if (modulesOf(line, kind).includes(module)) return kind;
  return undefined;
}

export interface CayuLayoutIssue {
  binding: ImportBinding;
  /** import-error's message id for it, and the data its template takes. */
  messageId: 'cayuModuleMissing' | 'cayuNameElsewhere';
  data: Readonly<Record<string, string>>;
  /** The module to import from instead, when one module serves every name of the statement. */
  replacement?: string;
}

function wrongFrom(line: CayuLine, b: ImportBinding): CayuNameKind | undefined {
  if (b.importedName === undefined || b.isWildcard || !LAYOUT_NAMES.has(b.importedName)) return undefined;
  const kind = cayuNameKind(b.importedName);
  if (modulesOf(line, kind).includes(b.module)) return undefined;
  if (line.partialHookModules?.[b.module]?.includes(b.importedName)) return undefined;
  // `cayu` itself too: 0.15 removed the hook API from it (`from cayu import RuntimeHook` raises ImportError).
  return b.module === 'cayu' || b.module.startsWith('cayu.') ? kind : undefined;
}

/** The from-imports and module imports the active Cayu line does not serve, with where to go instead. */
export function cayuLayoutIssues(imports: readonly ImportBinding[]): CayuLayoutIssue[] {
  const line = activeCayuLine();
  if (!line) return [];
  const out: CayuLayoutIssue[] = [];
  const byStatement = new Map<string, ImportBinding[]>();
  for (const b of imports) {
    const key = `${b.statementRange.start.line}:${b.statementRange.start.character}`;
    byStatement.set(key, [...(byStatement.get(key) ?? []), b]);
  }
  for (const b of imports) {
    // Indented: inside a try/if (an import guarded for another line, as import-error leaves alone).
    if (b.statementRange.start.character !== 0) continue;
    const home = `${line.title} (the line ${line.id})`;
    if (b.importedName === undefined) {
      // `import cayu.runtime.hooks as rh`: a layout module the line does not have.
      const kind = layoutKindOf(b.module);
      if (!kind || modulesOf(line, kind).includes(b.module)) continue;
      const to = kind === 'hooks' ? line.hooksModule : canonicalModule(line, kind);
      out.push({
        binding: b,
        messageId: 'cayuModuleMissing',
        data: { module: `\`${b.module}\``, home, to: `\`${to}\`` },
        replacement: to,
      });
      continue;
    }
    const kind = wrongFrom(line, b);
    if (!kind) continue;
    const key = `${b.statementRange.start.line}:${b.statementRange.start.character}`;
    const targets = new Set(
      (byStatement.get(key) ?? []).map((x) =>
        x.importedName && LAYOUT_NAMES.has(x.importedName)
          ? canonicalModule(line, cayuNameKind(x.importedName))
          : '',
      ),
    );
    const to = canonicalModule(line, kind);
    out.push({
      binding: b,
      messageId: 'cayuNameElsewhere',
      data: { name: `\`${b.importedName}\``, module: `\`${b.module}\``, home, to: `\`${to}\`` },
      ...(targets.size === 1 && targets.has(to) ? { replacement: to } : {}),
    });
  }
  return out;
}
