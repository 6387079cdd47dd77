// The scaffold snippets as completion items (prefixes `hook-modify-tool-call`, `modify_tool_call`,
// `cayu-before-tool-call`, `cayu-runtime-hook`): the hook is inserted at the cursor and its
// imports merged into the module's existing `from … import (…)` as an additional edit, the way
// completion after `@` does; a plain VS Code snippet could only paste import lines mid-file.
import {
  CompletionItemKind,
  InsertTextFormat,
  type CompletionItem,
  type Position,
} from 'vscode-languageserver';
import {
  CAYU_PHASES,
  HOOK_DECORATORS,
  findCayuPhase,
  type CayuPhaseId,
  type MantlePoint,
  catalogueGeneration,
} from '../../runtime/catalogue';
import { pointWired, type WiringSource } from '../../runtime/catalogue/wiring';
import { fromImportEdits } from '../../runtime/python/import-edits';
import { modifyHooks } from '../../runtime/python/hooks';
import type { HookModule } from '../../runtime/python/model';
import {
  cayuClassTemplate,
  mantleTemplate,
  targetDescription,
  type HookTemplate,
} from '../../runtime/scaffold/scaffold';

interface ScaffoldSnippet {
  prefixes: string[];
  label: string;
  detail: (wired: boolean) => string;
  template: () => HookTemplate;
  /** Mantle: its point, for "wired points first", as for `@` (Cayu phases are always invoked). */
  point?: MantlePoint;
  /** A modify hook: one per point per agent. */
  modify?: boolean;
}

const dashed = (s: string) => s.replace(/_/g, '-');

/** The items, as the selected engine line spells the decorators (rebuilt when the line changes). */
let built: { generation: number; snippets: readonly ScaffoldSnippet[] } | undefined;
function snippets(): readonly ScaffoldSnippet[] {
  if (built?.generation !== catalogueGeneration())
    built = { generation: catalogueGeneration(), snippets: build() };
  return built.snippets;
}

const build = (): readonly ScaffoldSnippet[] => [
  ...HOOK_DECORATORS.map((d) => ({
    prefixes: [`hook-${dashed(d.name)}`, d.name],
    label: `hook-${dashed(d.name)}`,
    detail: (wired: boolean) =>
      `Rasa Mantle ${d.lane} hook: ${targetDescription({ engine: 'mantle', decorator: d }, wired)}`,
    template: () => mantleTemplate(d),
    point: d.point,
    modify: d.lane === 'modify',
  })),
  ...CAYU_PHASES.map((p) => ({
    prefixes: [`cayu-${dashed(p.id)}`],
    label: `cayu-${dashed(p.id)}`,
    detail: () => `Cayu RuntimeHook subclass overriding ${p.id}`,
    template: () => cayuClassTemplate([p]),
  })),
  {
    prefixes: ['cayu-runtime-hook'],
    label: 'cayu-runtime-hook',
    detail: () => 'Cayu RuntimeHook subclass with the before_tool_call and after_tool_call phases',
    template: () =>
      cayuClassTemplate(
        (['before_tool_call', 'after_tool_call'] as CayuPhaseId[]).map((id) => findCayuPhase(id)!),
      ),
  },
];

/**
 * The modify hooks the agent already registers, by point id (a handler name each): a second one
 * at a point is an immediate duplicate-modify-hook error, so its snippet says so and comes last
 * (#31 item 11).
 */
export function takenModifyPoints(modules: readonly HookModule[]): Map<string, string> {
  const taken = new Map<string, string>();
  for (const m of modules)
    for (const h of modifyHooks(m)) if (!taken.has(h.point.id)) taken.set(h.point.id, h.fn.name);
  return taken;
}

/** At the start of a line (a bare word being typed at top level): the scaffold items; `wiring` as for not-wired. */
export function scaffoldCompletions(
  model: HookModule,
  text: string,
  line: string,
  pos: Position,
  wiring?: WiringSource,
  taken: ReadonlyMap<string, string> = new Map(),
): CompletionItem[] | undefined {
  const m = /^([a-z][\w-]*)$/.exec(line);
  if (!m) return undefined;
  const typed = m[1]!;
  const matching = snippets().filter((s) => s.prefixes.some((p) => p.startsWith(typed)));
  if (!matching.length) return undefined;
  const wired = (s: ScaffoldSnippet) => !s.point || pointWired(s.point, wiring).wired;
  const existing = (s: ScaffoldSnippet) => (s.modify && s.point ? taken.get(s.point.id) : undefined);
  const rank = (s: ScaffoldSnippet) => (existing(s) ? 2 : wired(s) ? 0 : 1);
  const ordered = [0, 1, 2].flatMap((r) => matching.filter((s) => rank(s) === r));
  return ordered.map((s, i) => {
    const t = s.template();
    const other = existing(s);
    return {
      label: s.label,
      kind: CompletionItemKind.Snippet,
      detail: other
        ? `the agent already has ${other} here: a second modify hook is a duplicate-modify-hook error · ${s.detail(wired(s))}`
        : s.detail(wired(s)),
      filterText: s.prefixes.find((p) => p.startsWith(typed)) ?? s.label,
      sortText: `~${String(i).padStart(2, '0')}`,
      insertTextFormat: InsertTextFormat.Snippet,
      textEdit: {
        range: { start: { line: pos.line, character: 0 }, end: pos },
        newText: t.snippet.replace(/\n$/, ''),
      },
      additionalTextEdits: fromImportEdits(model, text, t.module, t.imports, t.equivalentModules),
    };
  });
}
