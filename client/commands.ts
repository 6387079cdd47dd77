// Server commands: restart the language server, show the log.
import type { HooksmithContext } from './context';
import { RESTART_COMMAND, SHOW_OUTPUT_COMMAND } from './status';

export function serverCommandsFeature(ctx: HooksmithContext): void {
  ctx.registerCommand(RESTART_COMMAND, async () => {
    await ctx.restartServer();
  });
  ctx.registerCommand(SHOW_OUTPUT_COMMAND, () => ctx.log.show());
}
