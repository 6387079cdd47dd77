// Saved sample payloads: `<agentRoot>/.hooksmith/payloads/<point>[-<label>|.<label>].json`.
// A file's name says which point it is for; a new sample is written from the catalogue's
// sample (the engine's real shape) so the user starts from something valid. A point the selected
// Mantle API line renames is written under the line's name (outgoing_message.json) and found
// under either name (a sample saved on the spec's line, outgoing_text.json, still counts).
import * as fs from 'node:fs';
import * as path from 'node:path';
import { findAgentRoot, nodeFs } from '../workspace/discovery';
import { createFileAtomic } from '../workspace/atomic-file';
import { samplePayload } from '../engine/samples';
import { findPoint, spelledPoint } from '../catalogue';
import { parseJson, stringifyJson } from '../json/lossless-json';

/** The names a point's samples go by: the line's spelling first, then the catalogue id; a phase: itself. */
function sampleNames(point: string): string[] {
  const p = findPoint(point);
  return p ? [...new Set([spelledPoint(p.id), p.id])] : [point];
}

export const PAYLOADS_DIR = path.join('.hooksmith', 'payloads');

export function payloadsDir(agentRoot: string): string {
  return path.join(agentRoot, PAYLOADS_DIR);
}

/**
 * `tool_call.json`, `tool_call-refund.json` and `tool_call.refund.json` are for `tool_call`;
 * `tool_call_x.json` is not.
 */
export function sampleMatchesPoint(fileName: string, point: string): boolean {
  if (!fileName.toLowerCase().endsWith('.json')) return false;
  const stem = fileName.slice(0, -'.json'.length);
  return stem === point || stem.startsWith(`${point}-`) || stem.startsWith(`${point}.`);
}

/** The saved samples for `point`, the plain `<point>.json` first, then by name. Missing folder: []. */
export function listSamples(agentRoot: string, point: string): string[] {
  let names: string[];
  try {
    names = fs.readdirSync(payloadsDir(agentRoot));
  } catch {
    return [];
  }
  const spellings = sampleNames(point);
  const plain = spellings.map((s) => `${s}.json`);
  const rank = (n: string) => (plain.includes(n) ? plain.indexOf(n) : plain.length);
  return names
    .filter((n) => spellings.some((s) => sampleMatchesPoint(n, s)))
    .sort((a, b) => rank(a) - rank(b) || a.localeCompare(b))
    .map((n) => path.join(payloadsDir(agentRoot), n));
}

/** A free file name for a new sample of `point`: `<point>.json`, else `<point>-2.json`, `-3`, … */
export function newSampleFileName(point: string, existing: readonly string[]): string {
  const taken = new Set(existing.map((e) => path.basename(e).toLowerCase()));
  if (!taken.has(`${point}.json`.toLowerCase())) return `${point}.json`;
  for (let i = 2; ; i++) if (!taken.has(`${point}-${i}.json`.toLowerCase())) return `${point}-${i}.json`;
}

/** Writes a catalogue sample for `point` (a Mantle point or Cayu phase) as a new file; returns its path. */
export function createSampleFile(agentRoot: string, point: string): string {
  const sample = samplePayload(point);
  if (!sample.ok) throw new Error(sample.message);
  const dir = payloadsDir(agentRoot);
  fs.mkdirSync(dir, { recursive: true });
  let existing: string[] = [];
  try {
    existing = fs.readdirSync(dir);
  } catch {
    // just created
  }
  const file = path.join(dir, newSampleFileName(sampleNames(point)[0]!, existing));
  createFileAtomic(file, `${stringifyJson(sample.payload, 2)}\n`);
  return file;
}

export type PayloadRead = { ok: true; payload: unknown } | { ok: false; message: string };

/** Reads a payload file; malformed JSON is a clear message with the position, never a throw. */
export function readPayloadFile(file: string): PayloadRead {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (err) {
    return { ok: false, message: `cannot read ${file}: ${err instanceof Error ? err.message : String(err)}` };
  }
  try {
    return { ok: true, payload: parseJson(text.replace(/^\uFEFF/, '')) };
  } catch (err) {
    return {
      ok: false,
      message: `${path.basename(file)} is not valid JSON: ${err instanceof Error ? err.message : String(err)}`,
    };
  }
}

/** Where a hook file's samples live: its Mantle agent root, else (a loose Cayu file) its folder. */
export function agentRootOf(file: string): string {
  return findAgentRoot(file, nodeFs) ?? path.dirname(path.resolve(file));
}
