// A rule's per-hook verdicts kept across edits. The language server's rebuild after an edit
// reuses every def the edit did not touch, and a reused def keeps its hook records
// (runtime/python/hooks.ts: a record is a pure function of the def and the engine line). A rule
// that found a hook clean on the hook's own facts (its def's text and start, the names its
// decorator and annotations resolved to through imports, the catalogue entry) skips that hook
// while its record lives. Anything that depends on the rest of the module (other defs, names
// bound elsewhere, the environment) is checked again every time: the rule does not call it
// clean.
import type { MantleHook } from '../../python/hooks';
import type { HookModule } from '../../python/model';
import { mantleHooks } from '../../python/hooks';

/** The hooks one rule found clean on their own facts (one set per rule). */
export type CleanHooks = WeakSet<MantleHook>;

/**
 * Runs `check` on the module's Mantle hooks not already in `clean`. `check` reports into its
 * own list and returns true when it reported nothing and needed no fact beyond the hook's own.
 */
export function checkHooks(
  module: HookModule,
  clean: CleanHooks,
  check: (hook: MantleHook) => boolean,
): void {
  for (const h of mantleHooks(module)) {
    if (clean.has(h)) continue;
    if (check(h)) clean.add(h);
  }
}
