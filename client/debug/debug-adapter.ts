// Hooksmith's own debugger type, for machines without the Python Debugger extension: only debugpy
// in the user's interpreter is needed. A debug run's host has called debugpy.listen, which runs
// debugpy's adapter (`python -m debugpy.adapter`, from that interpreter) on the address: VS Code
// connects to it (`connect`). Any other configuration of this type gets a fresh
// `python -m debugpy.adapter` over stdio from the configured interpreter.
import * as vscode from 'vscode';

export const HOOKSMITH_DEBUG_TYPE = 'hooksmith-python';

class DebugpyAdapterFactory implements vscode.DebugAdapterDescriptorFactory {
  createDebugAdapterDescriptor(session: vscode.DebugSession): vscode.DebugAdapterDescriptor {
    const c = session.configuration as { connect?: { host?: string; port?: number }; python?: string };
    if (c.connect?.port) return new vscode.DebugAdapterServer(c.connect.port, c.connect.host ?? '127.0.0.1');
    return new vscode.DebugAdapterExecutable(c.python ?? 'python3', ['-m', 'debugpy.adapter']);
  }
}

export function registerDebugAdapter(): vscode.Disposable {
  return vscode.debug.registerDebugAdapterDescriptorFactory(
    HOOKSMITH_DEBUG_TYPE,
    new DebugpyAdapterFactory(),
  );
}
