// Which payload a run uses: the one given, else a saved sample for the point (a quick pick when
// there are several, plus "New sample from catalogue…"), else a new one written from the catalogue.
import * as path from 'node:path';
import * as vscode from 'vscode';
import { createSampleFile, listSamples, readPayloadFile } from '../../runtime/ui/payload-files';
import type { HooksmithContext } from '../context';

export type PayloadChoice = { payload: unknown; file?: string } | undefined;

const NEW_SAMPLE = 'New sample from catalogue…';

/** Writes the catalogue's sample; the run panel says so (and the file opens beside it). */
function createSample(ctx: HooksmithContext, agentRoot: string, point: string): ChosenPayload {
  const file = createSampleFile(agentRoot, point);
  ctx.log.info('run', `created ${file} from the catalogue sample of ${point}`);
  return { file, created: true };
}

export interface ChosenPayload {
  file: string;
  /** Written from the catalogue just now. */
  created: boolean;
}

/** Picks (or creates) the sample file for `point` under `agentRoot`; undefined when the user cancels. */
export async function choosePayloadFile(
  ctx: HooksmithContext,
  agentRoot: string,
  point: string,
): Promise<ChosenPayload | undefined> {
  const samples = listSamples(agentRoot, point);
  if (samples.length === 0) return createSample(ctx, agentRoot, point);
  if (samples.length === 1) return { file: samples[0]!, created: false };
  const items: (vscode.QuickPickItem & { file?: string })[] = [
    ...samples.map((f) => ({
      label: path.basename(f),
      description: path.relative(agentRoot, path.dirname(f)),
      file: f,
    })),
    { label: '', kind: vscode.QuickPickItemKind.Separator },
    { label: NEW_SAMPLE, description: `write ${point}'s catalogue sample to a new file` },
  ];
  const pick = await vscode.window.showQuickPick(items, {
    title: `Sample payload for ${point}`,
    placeHolder: 'Run the hook against…',
  });
  if (!pick) return undefined;
  return pick.file ? { file: pick.file, created: false } : createSample(ctx, agentRoot, point);
}

/** Reads a payload file; a malformed one is a message with "Open Payload", and undefined. */
export function loadPayload(file: string): PayloadChoice {
  const read = readPayloadFile(file);
  if (read.ok) return { payload: read.payload, file };
  void vscode.window.showErrorMessage(`Hooksmith: ${read.message}`, 'Open Payload').then((c) => {
    if (c) void vscode.window.showTextDocument(vscode.Uri.file(file));
  });
  return undefined;
}
