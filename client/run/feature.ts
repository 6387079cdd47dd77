// "Run Hook Against Sample Payload": from a CodeLens, the palette (a hook of the active file or
// agent) or the explorer (`{file, handler}`); runs it in the shared warm host and shows the
// result panel. The command returns the RunResult (e2e tests read it). This file only registers:
// the runs are RunHookRunner's (runner.ts).
import * as vscode from 'vscode';
import type { RunResult } from '../../runtime/engine/api';
import type { HooksmithContext } from '../context';
import { DEBUG_HOOK_COMMAND, HookCodeLensProvider, RUN_ALL_COMMAND } from './codelens';
import { RunHookRunner } from './runner';
import { openAt, parseMessage } from './webview-messages';

export type { RunHookArgs } from './hook-args';

export function runFeature(ctx: HooksmithContext): void {
  const runner = new RunHookRunner(ctx);
  const lenses = new HookCodeLensProvider(ctx);
  ctx.push(
    runner.panel,
    lenses,
    vscode.languages.registerCodeLensProvider({ language: 'python', scheme: 'file' }, lenses),
  );
  ctx.registerCommand('runHook', (raw?: unknown) => runner.runHook(raw, false));
  ctx.registerCommand(DEBUG_HOOK_COMMAND, (raw?: unknown) => runner.runHook(raw, true));
  ctx.registerCommand('rerunLastHook', (): Promise<RunResult | undefined> => runner.rerunLast());
  ctx.registerCommand(RUN_ALL_COMMAND, (raw?: unknown) => runner.runAll(raw));

  /** For tests: the run panel's HTML, and a message as the panel would post it (returns the re-run). */
  ctx.registerCommand('runPanelHtml', () => runner.panel.html);
  ctx.registerCommand('runPanelMessage', (raw: unknown) => {
    const m = parseMessage(raw);
    if (m?.type === 'open') return openAt(m.file, m.line);
    return m ? runner.onPanelMessage(m) : undefined;
  });
  ctx.registerCommand('crashMarks', () => runner.crashes());
  ctx.registerCommand('lastHookRun', () => runner.lastRun());
}
