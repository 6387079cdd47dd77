// Debug runs from the editor (#22): a runner of its own whose Python host listens with debugpy
// (runtime/host debug runs), and a VS Code debug session attached to it. With the Python Debugger
// extension (ms-python.debugpy) its `debugpy` type attaches; without it, Hooksmith's own
// `hooksmith-python` type (debug-adapter.ts). The host (and the session) end with the run; the
// shared warm host of normal runs is never a debug one. Only in a trusted workspace.
import * as vscode from 'vscode';
import { debugpyInstallCommand, missingDebugpy } from '../../runtime/host/debug-listen';
import { createHookRunner, type HookRunner } from '../../runtime/engine/runner';
import type { HooksmithContext } from '../context';
import { selectEditorLine } from '../python/engine-line';
import { editorModels } from '../python/runner-service';
import { InterpreterResolver, pickInterpreter, showNoInterpreter } from '../python/interpreter';
import { ensureTrusted } from '../trust/trust';
import { HOOKSMITH_DEBUG_TYPE } from './debug-adapter';

const PYTHON_DEBUGGER_ID = 'ms-python.debugpy';

/** The debug configuration attaching to a host listening at `address`. */
export function attachConfiguration(
  name: string,
  address: string,
  python: string,
): vscode.DebugConfiguration {
  const sep = address.lastIndexOf(':');
  const connect = { host: address.slice(0, sep), port: Number(address.slice(sep + 1)) };
  const type = vscode.extensions.getExtension(PYTHON_DEBUGGER_ID) ? 'debugpy' : HOOKSMITH_DEBUG_TYPE;
  return { type, request: 'attach', name, connect, justMyCode: true, python, hooksmithDebugRun: true };
}

/**
 * The missing-debugpy message with what to do: install it (in a terminal: it may ask for a
 * password), or pick another interpreter.
 */
async function offerDebugpy(message: string, python: string): Promise<void> {
  const install = 'Install debugpy';
  const choose = 'Choose Interpreter';
  const choice = await vscode.window.showErrorMessage(`Hooksmith: ${message}`, install, choose);
  if (choice === install) {
    const terminal = vscode.window.createTerminal('Hooksmith: install debugpy');
    terminal.show();
    terminal.sendText(debugpyInstallCommand(python), true);
  } else if (choice === choose) await pickInterpreter();
}

/**
 * Runs `work` on a debug runner under a VS Code debug session; resolves with its result, or
 * undefined when nothing could start (untrusted, no Python, no debugpy: the user was told).
 */
export async function debugRun<T>(
  ctx: HooksmithContext,
  name: string,
  resource: vscode.Uri | undefined,
  work: (runner: HookRunner) => Promise<T>,
): Promise<T | undefined> {
  if (!ensureTrusted()) return undefined;
  const resolver = new InterpreterResolver(ctx);
  const choice = await resolver.resolve(resource).finally(() => resolver.dispose());
  if (!choice.ok) {
    void showNoInterpreter(choice.rejected, ctx.log);
    return undefined;
  }
  const python = choice.python;
  const missing = await missingDebugpy(python, undefined, 'editor');
  if (missing) {
    ctx.log.warn('debug', missing);
    void offerDebugpy(missing, python);
    return undefined;
  }
  let session: vscode.DebugSession | undefined;
  let attached: Thenable<boolean> | undefined;
  const folder = resource
    ? vscode.workspace.getWorkspaceFolder(resource)
    : vscode.workspace.workspaceFolders?.[0];
  const mantleLine = await selectEditorLine(ctx, python, resource);
  const runner = createHookRunner({
    python,
    mantleLine,
    workspaceRoots: () => (vscode.workspace.workspaceFolders ?? []).map((f) => f.uri.fsPath),
    wiredPoints: () => ctx.settings(resource).mantle.wiredPoints,
    cayuEngine: () => ctx.settings(resource).cayu.engine,
    cayuSafetyStopS: () => ctx.settings(resource).cayu.safetyStopSeconds,
    mantleEngine: () => ctx.settings(resource).mantle.engine,
    models: editorModels(ctx.settings(resource)),
    log: (line) => ctx.log.info('debug', line.replace(/^\[host\]\s*/, '')),
    debug: {
      address: '127.0.0.1:0',
      onListening: (address) => {
        ctx.log.info('debug', `${name}: debugpy listens at ${address}; attaching`);
        attached = vscode.debug.startDebugging(
          folder,
          attachConfiguration(`Hooksmith: ${name}`, address, python),
        );
      },
    },
  });
  // The user stopping the session ends the run: its host is disposed (the run reports that).
  const sub = vscode.debug.onDidStartDebugSession((s) => {
    if (s.configuration.hooksmithDebugRun && !session) session = s;
  });
  const ended = vscode.debug.onDidTerminateDebugSession((s) => {
    if (s === session) void runner.dispose();
  });
  try {
    return await work(runner);
  } finally {
    sub.dispose();
    ended.dispose();
    await runner.dispose();
    if (session && (await attached)) void vscode.debug.stopDebugging(session);
  }
}
