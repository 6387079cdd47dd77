// What the run commands are given: their arguments as a caller passes them (a CodeLens, the
// explorer, a test), and the hook the user picks when none is named.
import * as path from 'node:path';
import * as vscode from 'vscode';
import { agentRootOf } from '../../runtime/ui/payload-files';
import type { HooksmithContext } from '../context';
import { allHooks, hooksInFile, type HookRef } from './hook-target';

/** `hooksmith.runHook` arguments: all optional; without `file`/`handler` a quick pick asks. */
export interface RunHookArgs {
  file?: string;
  handler?: string;
  /** A payload file to use (skips the sample choice). */
  payloadFile?: string;
  /** A payload value to use as is (tests). */
  payload?: unknown;
}

/** The 0-based line of a hook's definition, from the server's list. */
export function defLine(ctx: HooksmithContext, ref: HookRef): number {
  const entry = ctx.hooks.current?.agents
    .flatMap((a) => a.hooks)
    .find((h) => path.resolve(h.file) === path.resolve(ref.file) && h.handler === ref.handler);
  return entry?.range.start.line ?? 0;
}

export function asArgs(raw: unknown): RunHookArgs {
  if (typeof raw !== 'object' || raw === null || raw instanceof vscode.Uri) return {};
  const a = raw as Record<string, unknown>;
  return {
    file: typeof a.file === 'string' ? a.file : undefined,
    handler: typeof a.handler === 'string' ? a.handler : undefined,
    payloadFile: typeof a.payloadFile === 'string' ? a.payloadFile : undefined,
    ...('payload' in a ? { payload: a.payload } : {}),
  };
}

export async function pickHook(ctx: HooksmithContext): Promise<HookRef | undefined> {
  const active = vscode.window.activeTextEditor?.document;
  let hooks: HookRef[] = [];
  if (active?.uri.scheme === 'file' && active.languageId === 'python') {
    hooks = await hooksInFile(active.uri.fsPath, ctx.hooks.current);
    if (!hooks.length) hooks = allHooks(ctx.hooks.current, agentRootOf(active.uri.fsPath));
  }
  if (!hooks.length) hooks = allHooks(ctx.hooks.current);
  if (!hooks.length) {
    void vscode.window.showInformationMessage(
      'Hooksmith: no hooks found in this file or workspace. Open a hooks.py (or a RuntimeHook class) first.',
    );
    return undefined;
  }
  const root = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
  const pick = await vscode.window.showQuickPick(
    hooks.map((h) => ({
      label: h.handler,
      description: `${h.pointName ?? h.point} · ${h.lane}${h.timeoutMs !== undefined && h.engine === 'mantle' ? ` · ${h.timeoutMs} ms` : ''}`,
      detail: root ? path.relative(root, h.file) : h.file,
      hook: h,
    })),
    {
      title: 'Run Hook Against Sample Payload',
      placeHolder: 'Which hook?',
      matchOnDescription: true,
      matchOnDetail: true,
    },
  );
  return pick?.hook;
}
