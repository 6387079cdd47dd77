// "Hooksmith: New Scenario from Recorded Conversation": a recorded conversation (an OpenAI chat
// message list, or the JSON of `hooksmith simulate --format json`) → a multi-turn scenario file
// beside it, opened (runtime/scaffold/scenario-from-messages.ts; the CLI's `scenario
// from-messages`). Nothing runs: the scenario is only written.
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { stringify } from 'yaml';
import {
  RecordingError,
  scenarioFromRecording,
  scenarioOutputPath,
} from '../../runtime/scaffold/scenario-from-messages';
import type { HooksmithContext } from '../context';
import { parseJson } from '../../runtime/json/lossless-json';

export const FROM_RECORDING_COMMAND = 'newScenarioFromRecording';

export function registerFromRecording(ctx: HooksmithContext): void {
  // Arguments (tests, other commands): { file, output } skip the dialogs.
  ctx.registerCommand(FROM_RECORDING_COMMAND, async (raw?: unknown): Promise<string | undefined> => {
    const arg = (raw ?? {}) as { file?: string; output?: string };
    const file =
      arg.file ??
      (
        await vscode.window.showOpenDialog({
          title: 'A recorded conversation: a chat message list, or hooksmith simulate JSON',
          filters: { JSON: ['json'] },
          canSelectMany: false,
        })
      )?.[0]?.fsPath;
    if (!file) return undefined;
    const name = path.basename(file).replace(/\.json$/i, '');
    let text: string;
    try {
      const recorded = scenarioFromRecording(parseJson(fs.readFileSync(file, 'utf8')), name);
      text = `# Recorded from ${path.basename(file)} (Hooksmith: New Scenario from Recorded Conversation)\n${stringify(recorded, { lineWidth: 0 })}`;
    } catch (err) {
      const why = err instanceof RecordingError || err instanceof SyntaxError ? err.message : String(err);
      void vscode.window.showErrorMessage(
        `Hooksmith: ${path.basename(file)} is not a recorded conversation: ${why}`,
      );
      return undefined;
    }
    const chosen =
      arg.output ??
      (
        await vscode.window.showSaveDialog({
          title: 'Hooksmith: Save the Recording as a Scenario',
          saveLabel: 'Save Scenario',
          defaultUri: vscode.Uri.file(path.join(path.dirname(file), `${name}.scenario.yaml`)),
          filters: { Scenario: ['scenario.yaml'] },
        })
      )?.fsPath;
    if (!chosen) return undefined;
    const output = scenarioOutputPath(chosen);
    fs.writeFileSync(output, text);
    await vscode.window.showTextDocument(vscode.Uri.file(output));
    return output;
  });
}
