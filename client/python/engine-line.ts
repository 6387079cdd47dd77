// The Mantle API line the extension host speaks — its Run Hook, Simulate, the Testing view's
// runs, Fuzz, Debug and Scaffold — chosen as the language server and the CLI choose it
// (runtime/cpython/engine-line.ts): hooksmith.mantle.apiLine, else what the interpreter's
// rasa.mantle.hooks exports, else the spec's. The extension host's catalogue is respelled in
// place (its module checks and templates follow), and a host started for the line is told it.
import type * as vscode from 'vscode';
import type { MantleLineId } from '../../runtime/catalogue';
import { probeEngineLine } from '../../runtime/cpython/engine-line';
import type { HooksmithContext } from '../context';

export const API_LINE_SETTING = 'hooksmith.mantle.apiLine';

export async function selectEditorLine(
  ctx: HooksmithContext,
  python: string | undefined,
  resource?: vscode.Uri,
): Promise<MantleLineId> {
  const override = ctx.settings(resource).mantle.apiLine ?? undefined;
  const { line } = await probeEngineLine(python, override);
  ctx.log.info(
    'python',
    `Mantle API line ${line} (${override ? API_LINE_SETTING : `what ${python ?? 'python3'} has installed`})`,
  );
  return line;
}
