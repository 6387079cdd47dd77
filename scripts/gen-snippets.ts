// Generates snippets/python.json (the spec's Mantle API line; the editor's snippet completions are the
// language server's, on the selected line) from the catalogue (through runtime/scaffold/scaffold.ts, the same
// templates the Scaffold Hook command inserts). Run: node --import tsx scripts/gen-snippets.ts
// A unit test (test/unit/snippets.test.ts) fails when the committed file is out of date.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CAYU_PHASES, HOOK_DECORATORS, findCayuPhase, type CayuPhaseId } from '../runtime/catalogue';
import { fromImportStatement } from '../runtime/python/import-edits';
import {
  cayuClassTemplate,
  mantleTemplate,
  targetDescription,
  type HookTemplate,
} from '../runtime/scaffold/scaffold';

export interface Snippet {
  prefix: string[];
  description: string;
  body: string[];
}

const MERGE_NOTE =
  'Imports are written as the first lines (a snippet cannot merge imports): to merge them into existing imports use "Hooksmith: Scaffold Hook".';

/** The template's imports as written at the top of a new module, then two blank lines and the hook. */
function body(t: HookTemplate): string[] {
  const imports = fromImportStatement(t.module, t.imports);
  return [...imports.split('\n'), '', '', ...t.snippet.replace(/\n$/, '').split('\n')];
}

function dashed(s: string): string {
  return s.replace(/_/g, '-');
}

export function buildSnippets(): Record<string, Snippet> {
  const out: Record<string, Snippet> = {};
  for (const d of HOOK_DECORATORS) {
    out[`Mantle @${d.name}()`] = {
      prefix: [d.name, `hook-${dashed(d.name)}`],
      description: `Rasa Mantle ${d.lane} hook: ${targetDescription({ engine: 'mantle', decorator: d })}. ${MERGE_NOTE}`,
      body: body(mantleTemplate(d)),
    };
  }
  for (const p of CAYU_PHASES) {
    out[`Cayu ${p.id}`] = {
      prefix: [`cayu-${dashed(p.id)}`],
      description: `Cayu RuntimeHook subclass overriding ${p.id}. ${MERGE_NOTE}`,
      body: body(cayuClassTemplate([p])),
    };
  }
  const toolPhases = (['before_tool_call', 'after_tool_call'] as CayuPhaseId[]).map((id) =>
    findCayuPhase(id)!,
  );
  out['Cayu RuntimeHook class'] = {
    prefix: ['cayu-runtime-hook'],
    description: `Cayu RuntimeHook subclass with the before_tool_call and after_tool_call phases (a subclass takes part only in the phases it overrides). ${MERGE_NOTE}`,
    body: body(cayuClassTemplate(toolPhases)),
  };
  return out;
}

export function snippetsJson(): string {
  return JSON.stringify(buildSnippets(), null, 2) + '\n';
}

export const SNIPPETS_PATH = join(__dirname, '..', 'snippets', 'python.json');

if (require.main === module) {
  writeFileSync(SNIPPETS_PATH, snippetsJson());
  console.log(`[gen-snippets] ${Object.keys(buildSnippets()).length} snippets → ${SNIPPETS_PATH}`);
}
