// The Mantle (and Cayu) API line the extension host speaks — its Run Hook, Simulate, the Testing view's
// runs, Fuzz, Debug and Scaffold — chosen as the language server and the CLI choose it
// (runtime/cpython/engine-line.ts): hooksmith.mantle.apiLine, else what the interpreter's
// rasa.mantle.hooks exports, else the spec's. The extension host's catalogue is respelled in
// place (its module checks and templates follow), and a host started for the line is told it.
import type * as vscode from 'vscode';
import type { MantleLineId } from '../../runtime/catalogue';
import { probeEngineLine } from '../../runtime/cpython/engine-line';
import type { HooksmithContext } from '../context';

export const API_LINE_SETTING = 'hooksmith.mantle.apiLine';
export const CAYU_LINE_SETTING = 'hooksmith.cayu.apiLine';

export async function selectEditorLine(
  ctx: HooksmithContext,
  python: string | undefined,
  resource?: vscode.Uri,
): Promise<MantleLineId> {
  const settings = ctx.settings(resource);
  const override = settings.mantle.apiLine ?? undefined;
  const cayuOverride = settings.cayu.apiLine ?? undefined;
  // The Cayu line is selected beside it (the runner tells the host it; templates follow it).
  const { line, cayuLine } = await probeEngineLine(python, override, cayuOverride);
  const installed = `what ${python ?? 'python3'} has installed`;
  ctx.log.info('python', `Mantle API line ${line} (${override ? API_LINE_SETTING : installed})`);
  ctx.log.info(
    'python',
    `Cayu API line ${cayuLine ?? 'none: both import layouts accepted'} (${cayuOverride ? CAYU_LINE_SETTING : installed})`,
  );
  return line;
}
