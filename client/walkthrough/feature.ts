// The Getting Started walkthrough (contributes.walkthroughs "getStarted" in package.json):
// "Hooksmith: Get Started" opens it, and it opens by itself once, the first time Hooksmith
// activates in a workspace that has no hooks yet (as extensions commonly do). Its "test" step
// completes when the user runs a test (the hooksmith.ranTest context key, set by the Testing
// view's run): a workspace that merely holds scenario files ticked it before (#31 item 12).
import * as vscode from 'vscode';
import type { HooksResult } from '../../runtime/lsp/shared';
import type { HooksmithContext } from '../context';

export const GET_STARTED_COMMAND = 'hooksmith.getStarted';
export const WALKTHROUGH_ID = 'getStarted';
/** globalState: the walkthrough was opened by itself once (never again, in any workspace). */
export const SHOWN_KEY = 'hooksmith.walkthroughShown';
const RAN_TEST = 'hooksmith.ranTest';

/** Whether a test ran in this window: the "test" step's context key. */
let ranTest = false;
const setContext = (value: boolean) => vscode.commands.executeCommand('setContext', RAN_TEST, value);

/** The user ran a test (client/testing): the walkthrough's "test" step is done. */
export function noteTestRun(log: HooksmithContext['log']): void {
  if (ranTest) return;
  ranTest = true;
  log.info('walkthrough', `${RAN_TEST}: true`);
  void setContext(true);
}

/**
 * VS Code creates its walkthrough service when a walkthrough first opens, and a step whose context is
 * already true then is never checked: the key is cleared before opening and set again after.
 */
async function around(open: () => Thenable<unknown>): Promise<void> {
  if (ranTest) await setContext(false);
  await open();
  if (ranTest) await setContext(true);
}

/** The first hooks answer (after the server's first scan) lists no hook, and the walkthrough never opened by itself. */
export function shouldOpenWalkthrough(hooks: HooksResult | undefined, shownBefore: boolean): boolean {
  if (shownBefore || !hooks) return false;
  return hooks.agents.every((a) => a.hooks.length === 0);
}

export function walkthroughFeature(ctx: HooksmithContext): void {
  const open = () =>
    around(() =>
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
