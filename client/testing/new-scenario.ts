// "Hooksmith: New Scenario": asks for the agent (the one of the folder, Testing item or editor it
// was started from, else a pick) and the hooks to exercise, writes a one-turn scenario that tests
// them in the agent's scenarios folder (runtime/scaffold/new-scenario.ts) and opens it. Nothing
// runs, so it works in an untrusted folder too. Also the `scenario` / `turns` snippets of
// *.scenario.yaml files.
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { AgentHooks, HookEntry } from '../../runtime/lsp/shared';
import {
  freeScenarioPath,
  newScenarioText,
  SCENARIO_SNIPPETS,
  scenarioFolder,
  scenarioName,
} from '../../runtime/scaffold/new-scenario';
import { expandSnippet } from '../../runtime/scaffold/snippet-syntax';
import type { HooksmithContext } from '../context';

export const NEW_SCENARIO_COMMAND = 'newScenario';

/** Arguments of tests and other commands: skip the questions. */
interface NewScenarioArgs {
  /** The agent root. */
  agent?: string;
  /** Handlers ("fn", "Class.method") of the agent's hooks. */
  hooks?: string[];
}

const within = (file: string, root: string) => file === root || file.startsWith(root + path.sep);

/** The agent of a file or folder: the deepest agent root holding it. */
function agentOf(agents: readonly AgentHooks[], file: string | undefined): AgentHooks | undefined {
  if (!file) return undefined;
  return agents.filter((a) => within(file, a.root)).sort((a, b) => b.root.length - a.root.length)[0];
}

/** Where the command was started: a folder or file (explorer), a Testing item, or the arguments. */
function startedFrom(raw: unknown): { file?: string; args: NewScenarioArgs } {
  if (raw instanceof vscode.Uri) return { file: raw.fsPath, args: {} };
  const o = (raw ?? {}) as { uri?: vscode.Uri } & NewScenarioArgs;
  if (o.uri instanceof vscode.Uri) return { file: o.uri.fsPath, args: {} };
  return { file: o.agent ?? vscode.window.activeTextEditor?.document.uri.fsPath, args: o };
}

async function pickAgent(agents: readonly AgentHooks[]): Promise<AgentHooks | undefined> {
  if (agents.length === 1) return agents[0];
  const chosen = await vscode.window.showQuickPick(
    agents.map((a) => ({
      label: vscode.workspace.asRelativePath(a.root, false) || path.basename(a.root),
      description: `${a.hooks.length} hook${a.hooks.length === 1 ? '' : 's'}`,
      agent: a,
    })),
    { title: 'Hooksmith: New Scenario', placeHolder: 'The agent the scenario plays' },
  );
  return chosen?.agent;
}

async function pickHooks(agent: AgentHooks): Promise<HookEntry[] | undefined> {
  const chosen = await vscode.window.showQuickPick(
    agent.hooks.map((h) => ({
      label: h.handler,
      description: `${h.point} · ${h.lane}${h.wired ? '' : ' · not wired'}`,
      detail: vscode.workspace.asRelativePath(h.file, false),
      hook: h,
    })),
    {
      // The placeholder is cut at the box's width: the short question there, the rest in the title.
      title: 'Hooksmith: New Scenario: each hook picked gets a hook_outcome check; none picked: a plain turn',
      placeHolder: 'Hooks it tests',
      canPickMany: true,
      matchOnDescription: true,
    },
  );
  return chosen?.map((c) => c.hook);
}

/**
 * How long VS Code's copy of the tests lags the extension's: the extension host publishes test item
 * changes debounced by 200 ms (ExtHostTestItemCollection's debounceSendDiff in VS Code 1.139), and
 * Run Tests in Current File looks only at that copy. A file opened sooner after its items are made
 * reads "No tests found in this file" to a run asked for at once (#45 item 7).
 */
const TEST_ITEMS_PUBLISHED_MS = 300;

export function registerNewScenario(ctx: HooksmithContext, written: (file: string) => void = () => {}): void {
  ctx.registerCommand(NEW_SCENARIO_COMMAND, async (raw?: unknown): Promise<string | undefined> => {
    const { file, args } = startedFrom(raw);
    const agents = (ctx.hooks.current?.agents ?? []).filter((a) => a.hooks.length);
    if (!agents.length) {
      const scaffold = 'Scaffold Hook';
      const choice = await vscode.window.showInformationMessage(
        'Hooksmith: no agent with hooks found yet: a scenario plays the hooks of an agent. Scaffold a hook first.',
        scaffold,
      );
      if (choice === scaffold) await vscode.commands.executeCommand('hooksmith.scaffoldHook');
      return undefined;
    }
    const agent = agentOf(agents, file) ?? (await pickAgent(agents));
    if (!agent) return undefined;
    const hooks = args.hooks
      ? agent.hooks.filter((h) => args.hooks!.includes(h.handler))
      : await pickHooks(agent);
    if (!hooks) return undefined;
    const picked = hooks.map((h) => ({ handler: h.handler, point: h.point, wired: h.wired }));
    const existing = await vscode.workspace.findFiles(
      '**/*.scenario.{yaml,yml,json}',
      '**/node_modules/**',
      500,
    );
    const folder = scenarioFolder(
      agent.root,
      existing.map((u) => u.fsPath),
    );
    const name = scenarioName(picked);
    const output = freeScenarioPath(folder, name);
    fs.mkdirSync(folder, { recursive: true });
    fs.writeFileSync(output, newScenarioText(picked, name), { flag: 'wx' });
    // Its test items now, not when the file watcher reports it; the editor opens once VS Code has them.
    written(output);
    await new Promise((resolve) => setTimeout(resolve, TEST_ITEMS_PUBLISHED_MS));
    await vscode.window.showTextDocument(vscode.Uri.file(output));
    return output;
  });

  // The snippets, offered in scenario files only (VS Code's snippet files are per language).
  ctx.push(
    vscode.languages.registerCompletionItemProvider(
      [
        { language: 'yaml', pattern: '**/*.scenario.yaml' },
        { language: 'yaml', pattern: '**/*.scenario.yml' },
      ],
      {
        provideCompletionItems: () =>
          SCENARIO_SNIPPETS.map((s) => {
            const item = new vscode.CompletionItem(s.prefix, vscode.CompletionItemKind.Snippet);
            item.insertText = new vscode.SnippetString(s.body);
            item.detail = s.description;
            item.documentation = new vscode.MarkdownString().appendCodeblock(expandSnippet(s.body), 'yaml');
            return item;
          }),
      },
    ),
  );
}
