// The Getting Started walkthrough (contributes.walkthroughs "getStarted" in package.json):
// "Hooksmith: Get Started" opens it, and it opens by itself once, the first time Hooksmith
// activates in a workspace that has no hooks yet (as extensions commonly do). Its "test" step
// completes when the workspace holds a scenario file (the hooksmith.hasScenario context key).
import * as vscode from 'vscode';
import type { HooksResult } from '../../runtime/lsp/shared';
import type { HooksmithContext } from '../context';

export const GET_STARTED_COMMAND = 'hooksmith.getStarted';
export const WALKTHROUGH_ID = 'getStarted';
/** globalState: the walkthrough was opened by itself once (never again, in any workspace). */
export const SHOWN_KEY = 'hooksmith.walkthroughShown';
const HAS_SCENARIO = 'hooksmith.hasScenario';
const SCENARIO_GLOB = '**/*.scenario.{yaml,yml,json}';

/** The first hooks answer (after the server's first scan) lists no hook, and the walkthrough never opened by itself. */
export function shouldOpenWalkthrough(hooks: HooksResult | undefined, shownBefore: boolean): boolean {
  if (shownBefore || !hooks) return false;
  return hooks.agents.every((a) => a.hooks.length === 0);
}

const setContext = (value: boolean) => vscode.commands.executeCommand('setContext', HAS_SCENARIO, value);

/** Whether the workspace holds a scenario file, from a search and a watcher (creations are enough to say yes). */
class ScenarioPresence implements vscode.Disposable {
  private has = false;
  private readonly watcher = vscode.workspace.createFileSystemWatcher(SCENARIO_GLOB, false, true, true);
  private readonly subscription = this.watcher.onDidCreate(() => this.set(true));

  constructor(private readonly ctx: HooksmithContext) {
    void vscode.workspace.findFiles(SCENARIO_GLOB, '**/node_modules/**', 1).then(
      (found) => {
        if (found.length) this.set(true);
      },
      (err: unknown) => ctx.log.warn('walkthrough', `scenario search failed: ${String(err)}`),
    );
  }

  private set(value: boolean): void {
    if (this.has === value) return;
    this.has = value;
    this.ctx.log.info('walkthrough', `${HAS_SCENARIO}: ${value}`);
    void setContext(value);
  }

  /**
   * VS Code creates its walkthrough service when a walkthrough first opens, and a step whose context is
   * already true then is never checked: the key is cleared before opening and set again after.
   */
  async around(open: () => Thenable<unknown>): Promise<void> {
    if (this.has) await setContext(false);
    await open();
    if (this.has) await setContext(true);
  }

  dispose(): void {
    this.subscription.dispose();
    this.watcher.dispose();
  }
}

export function walkthroughFeature(ctx: HooksmithContext): void {
  const scenarios = new ScenarioPresence(ctx);
  ctx.push(scenarios);
  const open = () =>
    scenarios.around(() =>
      vscode.commands.executeCommand(
        'workbench.action.openWalkthrough',
        `${ctx.extension.extension.id}#${WALKTHROUGH_ID}`,
        false,
      ),
    );
  ctx.registerCommand(GET_STARTED_COMMAND, open);
  if (ctx.extension.globalState.get<boolean>(SHOWN_KEY)) return;
  // Decided on the first hooks answer (the server answers it after its first scan), once.
  const once = ctx.hooks.onDidChange((hooks) => {
    if (!hooks) return;
    once.dispose();
    if (!shouldOpenWalkthrough(hooks, ctx.extension.globalState.get<boolean>(SHOWN_KEY) === true)) return;
    void ctx.extension.globalState.update(SHOWN_KEY, true);
    ctx.log.info('walkthrough', 'no hooks in this workspace yet: opening Get Started');
    open().catch((err: unknown) => ctx.log.warn('walkthrough', `not opened: ${String(err)}`));
  });
  ctx.push(once);
}
