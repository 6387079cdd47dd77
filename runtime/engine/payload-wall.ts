// The payload wall (spec "Payload wall" and per-point field tables): what the engine keeps of a
// payload a modify hook returned.
//  - identity (sender_id / call / channel) is restored from the original input;
//  - read-only fields are engine-owned and restored too (tool_names, iteration, latency_ms, …);
//  - model_settings keeps only allow-listed keys with provider-safe value types;
//  - fields the payload type does not have are dropped;
//  - what is left must still have the field types, else the return value is invalid.
import {
  acceptsValue,
  allFields,
  findModelSetting,
  getPayloadType,
  MODEL_SETTINGS,
  type PayloadTypeName,
} from '../catalogue';
import { formatIssues } from '../json/json-path';
import { cloneJson, jsonEqual } from '../json/json-equal';
import { stringifyJson } from '../json/lossless-json';

export type WallResult =
  | { ok: true; payload: Record<string, unknown>; notes: string[] }
  | { ok: false; errors: string[]; notes: string[] };

/** model_settings after the allow-list: kept entries and a note per dropped key. */
export function filterModelSettings(settings: unknown): { kept: Record<string, unknown>; notes: string[] } {
  const kept: Record<string, unknown> = {};
  const notes: string[] = [];
  if (settings === null || typeof settings !== 'object' || Array.isArray(settings)) {
    if (settings !== undefined && settings !== null) notes.push('model_settings is not a dict: ignored');
    return { kept, notes };
  }
  const allowed = MODEL_SETTINGS.map((s) => s.key).join(', ');
  for (const [key, value] of Object.entries(settings as Record<string, unknown>)) {
    const setting = findModelSetting(key);
    if (!setting) notes.push(`model_settings key '${key}' dropped: not in the allow-list (${allowed})`);
    else if (!acceptsValue(setting, value))
      notes.push(
        `model_settings key '${key}' dropped: ${setting.doc.replace(/\.$/, '')} expected, got ${stringifyJson(value)}`,
      );
    else kept[key] = value;
  }
  return { kept, notes };
}

/** Tool-call dicts a hook added without an id get one, as the engine needs ids to pair results. */
function withToolCallIds(calls: unknown, notes: string[]): unknown {
  if (!Array.isArray(calls)) return calls;
  return calls.map((c, i) => {
    if (
      c &&
      typeof c === 'object' &&
      !Array.isArray(c) &&
      typeof (c as Record<string, unknown>).id !== 'string'
    ) {
      notes.push(`tool_calls[${i}] had no id: the engine assigns one`);
      return { ...(c as Record<string, unknown>), id: `call_hooked_${i}` };
    }
    return c;
  });
}

export function applyPayloadWall(
  type: PayloadTypeName,
  input: Record<string, unknown>,
  returned: Record<string, unknown>,
): WallResult {
  const payloadType = getPayloadType(type);
  const notes: string[] = [];
  const out: Record<string, unknown> = {};
  const fields = allFields(payloadType);
  const known = new Set(fields.map((f) => f.name));
  for (const key of Object.keys(returned)) {
    if (!known.has(key)) notes.push(`field '${key}' dropped: ${type} has no such field`);
  }
  for (const f of fields) {
    const original = input[f.name];
    const value = returned[f.name];
    if (f.mutability === 'mutable') {
      out[f.name] = cloneJson(value);
      continue;
    }
    out[f.name] = cloneJson(original);
    if (!jsonEqual(value, original)) {
      notes.push(
        f.mutability === 'identity'
          ? `identity field '${f.name}' restored from the input (the hook changed it; identity is engine-owned)`
          : `read-only field '${f.name}' restored (engine-owned; the hook's change is ignored)`,
      );
    }
  }
  if (type === 'ModelRequestPayload') {
    const { kept, notes: dropped } = filterModelSettings(out.model_settings);
    out.model_settings = kept;
    notes.push(...dropped);
  }
  if (type === 'ModelResponsePayload') out.tool_calls = withToolCallIds(out.tool_calls, notes);
  const errors: string[] = [];
  for (const f of payloadType.fields) {
    if (f.mutability !== 'mutable') continue;
    const parsed = f.schema.safeParse(out[f.name]);
    if (!parsed.success) errors.push(...formatIssues(parsed.error, [f.name]));
  }
  if (errors.length) return { ok: false, errors, notes };
  return { ok: true, payload: out, notes };
}
