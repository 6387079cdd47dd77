// The CodeLens row of one hook, as plain data (no `vscode` import; unit-tested): every lens of a
// hook on one line, above its decorators, in the same order for Mantle and Cayu:
//   ▶ Run hook · Debug hook · Fuzz hook · point · lane · budget
// Where Run would be: "✖ cannot run: N errors" while the file has errors the engine rejects (no
// Debug, no Fuzz), and "Trust this folder to run hooks" in an untrusted workspace (running
// executes the user's code).

import type { HookRef } from './hook-target';

export const RUN_HOOK_COMMAND = 'hooksmith.runHook';
export const RUN_ALL_COMMAND = 'hooksmith.runAllHooksInFile';
export const DEBUG_HOOK_COMMAND = 'hooksmith.debugHook';
export const FUZZ_COMMAND = 'hooksmith.fuzzHook';
export const TRUST_COMMAND = 'workbench.trust.manage';

/** A hook as Run knows it (hook-target.ts), and whether the engine invokes its point. */
export interface LensHook extends HookRef {
  wired: boolean;
}

export interface LensSpec {
  title: string;
  /** Empty: a label that does nothing when clicked. */
  command: string;
  arguments?: unknown[];
  tooltip: string;
}

export interface FileLensState {
  trusted: boolean;
  /** Hooksmith's error diagnostics of the file ("line N: message"): the engine refuses it. */
  errors: readonly string[];
}

export function hookLensRow(h: LensHook, s: FileLensState): LensSpec[] {
  const target = [{ file: h.file, handler: h.handler }];
  const row = [runLens(h, s)];
  if (s.trusted && !s.errors.length) {
    row.push({
      title: '$(debug-alt) Debug hook',
      command: DEBUG_HOOK_COMMAND,
      arguments: target,
      tooltip: `Run ${h.handler} under the debugger (debugpy): breakpoints stop it, budgets are not enforced`,
    });
    row.push({
      title: 'Fuzz hook',
      command: FUZZ_COMMAND,
      arguments: target,
      tooltip: 'Run the hook on 200 generated payloads for its point; report failures and latency',
    });
  }
  row.push(factsLens(h));
  return row;
}

/** "▶ Run all N hooks in this file", first on the first hook's row, when the file has several that can run. */
export function runAllLens(file: string, hooks: number, s: FileLensState): LensSpec | undefined {
  if (!s.trusted || s.errors.length || hooks < 2) return undefined;
  return {
    title: `▶ Run all ${hooks} hooks in this file`,
    command: RUN_ALL_COMMAND,
    arguments: [{ file }],
    tooltip: 'Run every hook of this file against its point’s first saved sample',
  };
}

function runLens(h: LensHook, s: FileLensState): LensSpec {
  if (!s.trusted)
    return {
      title: '$(shield) Trust this folder to run hooks',
      command: TRUST_COMMAND,
      tooltip: 'Restricted mode: running a hook executes your code. Diagnostics work without trust.',
    };
  const args = [{ file: h.file, handler: h.handler }];
  if (s.errors.length) {
    const n = s.errors.length;
    return {
      title: `✖ cannot run: ${n} error${n === 1 ? '' : 's'}`,
      command: RUN_HOOK_COMMAND,
      arguments: args,
      tooltip: `The engine rejects this module at load time; click to see what blocks it.\n${s.errors.slice(0, 5).join('\n')}`,
    };
  }
  return {
    title: '▶ Run hook',
    command: RUN_HOOK_COMMAND,
    arguments: args,
    tooltip: `Run ${h.handler} against a sample ${h.point} payload`,
  };
}

function factsLens(h: LensHook): LensSpec {
  if (h.engine === 'cayu')
    return { title: `phase · ${h.point}`, command: '', tooltip: 'The Cayu phase this method takes part in' };
  const budget = h.timeoutMs !== undefined ? ` · ${h.timeoutMs} ms` : '';
  return {
    title: `${h.pointName ?? h.point} · ${h.lane}${budget}${h.wired ? '' : ' · not wired'}`,
    command: '',
    tooltip: h.wired
      ? 'Insertion point, lane and timeout budget'
      : 'The engine does not invoke this point today',
  };
}
