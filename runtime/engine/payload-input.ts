// A payload file → the payload the engine would build, or the errors naming JSON paths.
// DESIGN.md: "A payload file holds the payload's fields, identity included (sender_id,
// optional call and channel), as JSON." Validated with the catalogue's zod schema.
import { EMPTY_CALL_INFO, getPayloadType, payloadSchema, type PayloadTypeName } from '../catalogue';
import { formatIssues } from '../json/json-path';
import { safeParseKeepingKeys } from '../json/proto-keys';

export type PayloadCheck = { ok: true; payload: Record<string, unknown> } | { ok: false; errors: string[] };

export function validatePayload(type: PayloadTypeName, input: unknown): PayloadCheck {
  if (input === null || typeof input !== 'object' || Array.isArray(input)) {
    return { ok: false, errors: [`(root): expected a JSON object with the fields of ${type}`] };
  }
  const parsed = safeParseKeepingKeys(
    payloadSchema(getPayloadType(type)),
    withoutSchemaKey(input as Record<string, unknown>),
  );
  if (!parsed.success) return { ok: false, errors: formatIssues(parsed.error) };
  const payload = parsed.data as Record<string, unknown>;
  // Older payload files write `call: null`; rasa-pro 3.21's CallInfo is never None (payloads.py:34).
  if ('call' in payload && payload.call === null) payload.call = { ...EMPTY_CALL_INFO, metadata: {} };
  return { ok: true, payload };
}

/**
 * A payload file may name its JSON Schema (`"$schema": "…"`) and, as a test case, the hook it
 * tests and what to expect (`hook`, `expect`: runtime/testing); the engine never sees those keys.
 */
export function withoutSchemaKey(input: Record<string, unknown>): Record<string, unknown> {
  if (!('$schema' in input) && !('hook' in input) && !('expect' in input)) return input;
  const { $schema: _schema, hook: _hook, expect: _expect, ...rest } = input;
  return rest;
}
