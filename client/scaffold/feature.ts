// "Hooksmith: Scaffold Hook": inserts a typed hook at the cursor of the active Python editor
// (imports merged, one undoable step for the imports then a snippet with tab stops), or
// writes a new module when no Python editor is active. Warns before a second modify hook at
// a point (duplicate-modify-hook). The text work is runtime/scaffold/scaffold.ts, on the file's tree-sitter
// tree (the parser loads once, on the first scaffold into a file). The names follow the Mantle
// API line the runner selects (hooksmith.mantle.apiLine, else the interpreter's rasa-pro).
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { HookDecorator } from '../../runtime/catalogue';
import {
  cayuClassTemplate,
  defaultClassName,
  defaultHookName,
  expandSnippet,
  mantleTemplate,
  modifyHooksInText,
  newModuleText,
  planCayuHook,
  planMantleHook,
  type InsertionPlan,
  type ScaffoldTarget,
} from '../../runtime/scaffold/scaffold';
import { snippetAtLineStart } from '../../runtime/scaffold/line-start';
import { initParser } from '../../runtime/python/parser';
import type { HooksmithContext } from '../context';
import { sharedRunner } from '../python/runner-service';
import { agentModifyHooks } from './duplicates';
import { askModuleName, findTarget, pickAgentFolder, pickTarget } from './pick';

export const SCAFFOLD_COMMAND = 'hooksmith.scaffoldHook';

/** Optional arguments (tests, other commands): skip the questions. */
export interface ScaffoldArgs {
  /** Decorator name or Cayu phase id. */
  target?: string;
  /** Module name for a new file (no editor). */
  name?: string;
  /** Insert even when a modify hook already exists at that point. */
  force?: boolean;
  /** The agent folder of a new module (absolute, or relative to the first workspace folder). */
  agent?: string;
}

function toPosition(p: { line: number; character: number }): vscode.Position {
  return new vscode.Position(p.line, p.character);
}

async function applyPlan(editor: vscode.TextEditor, plan: InsertionPlan): Promise<boolean> {
  if (plan.importEdits.length) {
    const ok = await editor.edit((b) => {
      for (const e of plan.importEdits)
        b.replace(new vscode.Range(toPosition(e.range.start), toPosition(e.range.end)), e.newText);
    });
    if (!ok) return false;
  }
  const at = snippetAtLineStart(plan);
  if (at.lineBreak) {
    const lineBreak = toPosition(at.lineBreak);
    if (
      !(await editor.edit((b) => b.insert(lineBreak, '\n'), { undoStopBefore: false, undoStopAfter: false }))
    )
      return false;
  }
  return editor.insertSnippet(new vscode.SnippetString(at.snippet), toPosition(at.position));
}

/** Asks before adding a second modify hook at a point; true to go on. */
async function confirmDuplicate(
  ctx: HooksmithContext,
  d: HookDecorator,
  file: string | undefined,
  textLines: number[],
  args: ScaffoldArgs,
): Promise<boolean> {
  if (d.lane !== 'modify' || args.force) return true;
  const others = file ? agentModifyHooks(ctx.hooks.current, file, d) : [];
  const where = [
    ...textLines.map((l) => `line ${l + 1} of this file`),
    ...others.map((h) => `${h.handler} (${path.basename(h.file)}:${h.range.start.line + 1})`),
  ];
  if (where.length === 0) return true;
  const choice = await vscode.window.showWarningMessage(
    `This agent already has a @${d.name}() hook: ${where.join(', ')}. Mantle allows one modify hook per point; a second registration fails at train time and model load (duplicate-modify-hook).`,
    { modal: true },
    'Insert Anyway',
    ...(others.length ? ['Open Existing'] : []),
  );
  if (choice === 'Open Existing' && others[0]) {
    const h = others[0];
    await vscode.window.showTextDocument(vscode.Uri.file(h.file), {
      selection: new vscode.Range(toPosition(h.range.start), toPosition(h.range.end)),
    });
  }
  return choice === 'Insert Anyway';
}

async function insertIntoEditor(
  ctx: HooksmithContext,
  editor: vscode.TextEditor,
  target: ScaffoldTarget,
  args: ScaffoldArgs,
): Promise<void> {
  const doc = editor.document;
  const text = doc.getText();
  const cursor = editor.selection.active.line;
  await initParser(); // the plans read the file's imports and hook classes off its tree
  if (target.engine === 'mantle') {
    const file = doc.uri.scheme === 'file' ? doc.uri.fsPath : undefined;
    if (
      !(await confirmDuplicate(ctx, target.decorator, file, modifyHooksInText(text, target.decorator), args))
    )
      return;
    const plan = planMantleHook(text, cursor, target.decorator);
    if (!(await applyPlan(editor, plan)))
      throw new Error('the editor refused the edit (was the file changed meanwhile?)');
    ctx.log.info('scaffold', `inserted @${target.decorator.name}() into ${doc.uri.toString()}`);
    return;
  }
  const plan = planCayuHook(text, cursor, target.phase);
  if (plan.kind === 'exists') {
    void vscode.window.showInformationMessage(`${plan.className} already overrides ${target.phase.id}.`);
    const at = new vscode.Position(Math.max(0, plan.line), 0);
    editor.selection = new vscode.Selection(at, at);
    editor.revealRange(new vscode.Range(at, at));
    return;
  }
  if (!(await applyPlan(editor, plan)))
    throw new Error('the editor refused the edit (was the file changed meanwhile?)');
  ctx.log.info(
    'scaffold',
    `inserted ${target.phase.id} (${plan.kind} ${plan.className}) into ${doc.uri.toString()}`,
  );
}

/**
 * Where a new module goes: `<agent>/hooks/<name>.py` for Mantle, `<agent>/<name>.py` for Cayu (its
 * classes, and the payloads saved for them, stay with the agent's other modules); the agent is asked.
 */
async function moduleFolder(
  ctx: HooksmithContext,
  target: ScaffoldTarget,
  args: ScaffoldArgs,
): Promise<vscode.Uri | undefined> {
  const folders = vscode.workspace.workspaceFolders ?? [];
  if (folders.length === 0) {
    void vscode.window.showWarningMessage(
      'Hooksmith: open a folder (your agent) to scaffold a hook module, or open a Python file.',
    );
    return undefined;
  }
  let root: string | undefined;
  if (args.agent) root = path.resolve(folders[0]!.uri.fsPath, args.agent);
  else {
    const folder =
      folders.length === 1
        ? folders[0]!
        : await vscode.window.showWorkspaceFolderPick({ placeHolder: 'Folder for the new hook module' });
    if (!folder) return undefined;
    root = await pickAgentFolder(folder, target.engine, ctx.hooks.current);
  }
  if (!root) return undefined;
  return vscode.Uri.file(target.engine === 'mantle' ? path.join(root, 'hooks') : root);
}

async function exists(uri: vscode.Uri): Promise<boolean> {
  try {
    await vscode.workspace.fs.stat(uri);
    return true;
  } catch {
    return false;
  }
}

async function createModule(
  ctx: HooksmithContext,
  target: ScaffoldTarget,
  args: ScaffoldArgs,
): Promise<void> {
  const dir = await moduleFolder(ctx, target, args);
  if (!dir) return;
  const base =
    target.engine === 'mantle'
      ? defaultHookName(target.decorator)
      : defaultClassName([target.phase])
          .replace(/([a-z])([A-Z])/g, '$1_$2')
          .toLowerCase();
  // The duplicate warning comes at once, right after the point was chosen, before any naming.
  if (
    target.engine === 'mantle' &&
    !(await confirmDuplicate(
      ctx,
      target.decorator,
      path.join(dir.fsPath, `${args.name ?? base}.py`),
      [],
      args,
    ))
  )
    return;
  const where = vscode.workspace.asRelativePath(dir, true) + '/';
  const name =
    args.name ?? (await askModuleName(base, (n) => exists(vscode.Uri.joinPath(dir, `${n}.py`)), where));
  if (!name) return;
  const file = vscode.Uri.joinPath(dir, `${name}.py`);
  if (await exists(file)) throw new Error(`${file.fsPath} already exists`);
  const template =
    target.engine === 'mantle' ? mantleTemplate(target.decorator) : cayuClassTemplate([target.phase]);
  const title =
    target.engine === 'mantle' ? `@${target.decorator.name}() hook.` : `Cayu ${target.phase.id} hook.`;
  const text = expandSnippet(newModuleText(template, title));
  await vscode.workspace.fs.createDirectory(dir);
  await vscode.workspace.fs.writeFile(file, Buffer.from(text, 'utf8'));
  const doc = await vscode.workspace.openTextDocument(file);
  const line = text.split('\n').findIndex((l) => /^(async def|class) /.test(l));
  const at = new vscode.Position(Math.max(0, line), 0);
  await vscode.window.showTextDocument(doc, { selection: new vscode.Range(at, at) });
  ctx.log.info('scaffold', `created ${file.fsPath}`);
}

export function scaffoldFeature(ctx: HooksmithContext): void {
  ctx.registerCommand(SCAFFOLD_COMMAND, async (raw?: unknown) => {
    const args: ScaffoldArgs =
      typeof raw === 'string'
        ? { target: raw }
        : typeof raw === 'object' && raw !== null
          ? (raw as ScaffoldArgs)
          : {};
    // The decorators and payload classes offered and written are the selected Mantle API line's.
    await sharedRunner(ctx).selectLine(vscode.window.activeTextEditor?.document.uri);
    const active = vscode.window.activeTextEditor?.document;
    const into =
      active?.languageId === 'python' && active.uri.scheme === 'file' ? active.uri.fsPath : undefined;
    const target = args.target ? findTarget(args.target) : await pickTarget(ctx.hooks.current, into);
    if (!target) {
      if (args.target)
        throw new Error(
          `unknown hook "${args.target}": use a decorator name (modify_tool_call) or a Cayu phase (before_tool_call)`,
        );
      return;
    }
    const editor = vscode.window.activeTextEditor;
    if (editor && editor.document.languageId === 'python') await insertIntoEditor(ctx, editor, target, args);
    else await createModule(ctx, target, args);
  });
}
