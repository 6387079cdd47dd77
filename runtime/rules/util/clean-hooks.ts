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

/** A rule's bit in MantleHook.cleanFor. */
export type CleanHooks = number;

let rules = 0;

/** A new rule's bit (one per rule, taken once when its module loads). */
export function cleanHooksBit(): CleanHooks {
  if (rules >= 31) throw new Error('more rules keep per-hook verdicts than MantleHook.cleanFor has bits');
  return 1 << rules++;
}

/**
 * Runs `check` on the module's Mantle hooks not already clean for the rule (`bit`). `check`
 * reports into its own list and returns true when it reported nothing and needed no fact beyond
 * the hook's own.
 */
export function checkHooks(module: HookModule, bit: CleanHooks, check: (hook: MantleHook) => boolean): void {
  for (const h of mantleHooks(module)) {
    if (h.cleanFor & bit) continue;
    if (check(h)) h.cleanFor |= bit;
  }
}
