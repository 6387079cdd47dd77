// `--debug [HOST:]PORT` for run, simulate and test: the host waits for a DAP client (debugpy) at
// that address before any hook runs, and enforces no budget. Ctrl-C ends the session: the host is
// killed with everything under it and the command exits 130 (128 + SIGINT, as a shell reports it).
import type { DebugListen } from '../host/host-state';
import { missingDebugpy, parseDebugAddress } from '../host/debug-listen';
import { printable } from './printable';

export const DEBUG_SPEC = { debug: { type: 'string' as const } };

export const INTERRUPTED_EXIT = 130;
const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

export interface CliDebug {
  debug: DebugListen;
  /** Until the returned function is called, Ctrl-C disposes `runner` and exits 130. */
  onInterrupt(runner: { dispose(): Promise<void> }): () => void;
}

/** undefined without --debug; the exit code (2) when the address is bad or debugpy is missing. */
export async function cliDebug(
  command: string,
  value: unknown,
  python?: string,
): Promise<CliDebug | number | undefined> {
  if (typeof value !== 'string') return undefined;
  const parsed = parseDebugAddress(value);
  if ('error' in parsed) {
    process.stderr.write(`hooksmith ${command}: ${parsed.error}\n`);
    return 2;
  }
  const missing = await missingDebugpy(python ?? 'python3');
  if (missing) {
    process.stderr.write(printable(`hooksmith ${command}: ${missing}\n`));
    return 2;
  }
  return {
    debug: {
      address: parsed.address,
      onListening: (address) =>
        process.stderr.write(
          `hooksmith ${command}: waiting for a debugger to attach at ${address} (DAP, debugpy; budgets are not enforced)\n`,
        ),
    },
    onInterrupt(runner) {
      const stop = (): void => {
        process.stderr.write(`hooksmith ${command}: interrupted: the debug session ended\n`);
        // The host also ends itself when its parent is gone: exit even if disposing hangs.
        const exit = () => process.exit(INTERRUPTED_EXIT);
        setTimeout(exit, 3000).unref();
        void runner.dispose().then(exit, exit);
      };
      // Ctrl-C, and a terminal or supervisor ending the CLI: the host must not outlive it.
      for (const signal of SIGNALS) process.once(signal, stop);
      return () => SIGNALS.forEach((signal) => process.removeListener(signal, stop));
    },
  };
}
