// The run panel's payload bar in the extension: which saved payloads of the hook's point it
// lists, opening the payload beside the panel, and a field edit written to the file atomically
// (refused while the file has unsaved changes in an editor, so neither edit is lost). A payload
// that is a test case (`expect`) is never changed behind the test's back: the edit goes to a copy,
// a new sample of the point (#31 item 2).
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { createFileAtomic, writeFileAtomic } from '../../runtime/workspace/atomic-file';
import {
  coerceField,
  editableFields,
  isCatalogueSample,
  type PayloadBar,
  type ScalarValue,
} from '../../runtime/ui/payload-bar-html';
import { agentRootOf, listSamples, newSampleFileName, readPayloadFile } from '../../runtime/ui/payload-files';
import type { HookRef } from './hook-target';
import { stringifyJson } from '../../runtime/json/lossless-json';

const isTestCase = (payload: unknown): boolean =>
  typeof payload === 'object' && payload !== null && 'expect' in payload;

/** The point's saved payloads; `file` is one of them or the bar is not shown for it. */
export function savedPayloads(ref: HookRef): string[] {
  return listSamples(agentRootOf(ref.file), ref.point).map((f) => path.resolve(f));
}

export function payloadBarFor(
  ref: HookRef,
  file: string,
  payload: unknown,
  justWritten: boolean,
): PayloadBar {
  const root = agentRootOf(ref.file);
  const shown = (f: string) => path.relative(root, f).split(path.sep).join('/');
  const saved = savedPayloads(ref);
  return {
    file,
    shown: shown(file),
    saved: (saved.includes(path.resolve(file)) ? saved : [path.resolve(file), ...saved]).map((f) => ({
      file: f,
      shown: path.basename(f),
    })),
    ...(isCatalogueSample(ref.point, payload) ? { catalogueSample: { point: ref.point, justWritten } } : {}),
    fields: editableFields(payload),
    ...(isTestCase(payload) ? { testCase: true } : {}),
  };
}

/** Opens the payload in the first editor group (beside the panel), keeping the focus where it is. */
export async function openPayloadBeside(file: string, preserveFocus = true): Promise<void> {
  await vscode.window.showTextDocument(vscode.Uri.file(file), {
    viewColumn: vscode.ViewColumn.One,
    preview: false,
    preserveFocus,
  });
}

/** `written`: the file the edit went to; `copiedFrom` when that is a copy of a test case. */
export type FieldEdit = { ok: true; written: string; copiedFrom?: string } | { ok: false; message: string };

/** A test case's copy: its payload (and `$schema`) without what makes it a test. */
function sampleCopy(payload: Record<string, unknown>): Record<string, unknown> {
  const { hook: _hook, expect: _expect, ...rest } = payload;
  return rest;
}

/**
 * Sets top-level scalar `key` of the payload in `file` to `value` (of the field's own type); a test
 * case's file stays as it is and the edit is written to a new sample of `point` beside it.
 */
export function setPayloadField(file: string, key: string, value: unknown, point: string): FieldEdit {
  const name = path.basename(file);
  const open = vscode.workspace.textDocuments.find((d) => path.resolve(d.uri.fsPath) === path.resolve(file));
  if (open?.isDirty)
    return { ok: false, message: `${name} has unsaved changes: save them first, then edit the field` };
  const read = readPayloadFile(file);
  if (!read.ok) return { ok: false, message: read.message };
  const fields = editableFields(read.payload);
  const field = fields.find((f) => f.key === key);
  if (!field) return { ok: false, message: `${name} has no top-level text, number or boolean field ${key}` };
  const next: ScalarValue | undefined = coerceField(field.value, value);
  if (next === undefined)
    return { ok: false, message: `${key} takes a ${typeof field.value}: ${String(value)} is not one` };
  const payload = { ...(read.payload as Record<string, unknown>), [key]: next };
  if (!isTestCase(payload)) {
    writeFileAtomic(file, `${stringifyJson(payload, 2)}\n`);
    return { ok: true, written: file };
  }
  const dir = path.dirname(file);
  const copy = path.join(dir, newSampleFileName(point, fs.readdirSync(dir)));
  createFileAtomic(copy, `${stringifyJson(sampleCopy(payload), 2)}\n`);
  return { ok: true, written: copy, copiedFrom: file };
}
