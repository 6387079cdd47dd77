// Which hooks the last Run with Coverage exercised (hook coverage, runtime/testing/coverage): the
// hooks explorer marks a hook no case ran. One per extension context.
import * as vscode from 'vscode';
import type { AgentHookCoverage } from '../../runtime/testing/coverage/hook-coverage';
import type { HooksmithContext } from '../context';

export class ExercisedHooks implements vscode.Disposable {
  /** "absolute file::handler" → cases that ran it; undefined until a coverage run. */
  private cases: Map<string, number> | undefined;
  private readonly emitter = new vscode.EventEmitter<void>();
  readonly onDidChange = this.emitter.event;

  set(agents: readonly AgentHookCoverage[]): void {
    this.cases = new Map(
      agents.flatMap((a) =>
        a.hooks.map((h) => [`${h.file}::${h.hook.slice(h.hook.lastIndexOf('::') + 2)}`, h.cases]),
      ),
    );
    this.emitter.fire();
  }

  /** Cases that ran the hook in the last coverage run; undefined: not measured (no run, or a hook added since). */
  casesOf(file: string, handler: string): number | undefined {
    return this.cases?.get(`${file}::${handler}`);
  }

  dispose(): void {
    this.emitter.dispose();
  }
}

const stores = new WeakMap<HooksmithContext, ExercisedHooks>();

export function exercisedHooks(ctx: HooksmithContext): ExercisedHooks {
  let s = stores.get(ctx);
  if (!s) {
    s = new ExercisedHooks();
    stores.set(ctx, s);
    ctx.push(s);
  }
  return s;
}
