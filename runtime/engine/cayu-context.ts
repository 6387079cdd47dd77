// The data a Cayu phase's context is built from (runtime/host/protocol.ts, InvokeRequest.payload):
// zod schemas for payload files of Cayu phases, and samples. Field names follow the context
// properties in the catalogue (CAYU_CONTEXTS) and ToolResult (CAYU_TOOL_RESULT_FIELDS).
import { z } from 'zod';
import type { CayuPhaseId } from '../catalogue';
import { formatIssues } from '../json/json-path';
import { withoutSchemaKey } from './payload-input';
import { safeParseKeepingKeys } from '../json/proto-keys';

const jsonObject = z.record(z.string(), z.unknown());

export const toolResultSchema = z.strictObject({
  content: z.string().default(''),
  structured: z.unknown().optional(),
  artifacts: z.array(z.unknown()).default([]),
  is_error: z.boolean().default(false),
});
export type CayuToolResult = z.infer<typeof toolResultSchema>;

const sessionSchema = z.object({ id: z.string(), status: z.string().optional() }).loose();

const toolCallContext = {
  tool_name: z.string(),
  tool_call_id: z.string().default('call_1'),
  arguments: jsonObject.default({}),
  task_id: z.string().nullable().default(null),
  session: sessionSchema.default({ id: 'session-1', status: 'running' }),
};

export const CAYU_CONTEXT_SCHEMAS: Record<CayuPhaseId, z.ZodObject> = {
  before_tool_call: z.strictObject(toolCallContext),
  after_tool_call: z.strictObject({ ...toolCallContext, result: toolResultSchema }),
  after_session_completed: sessionContext('completed'),
  after_session_failed: sessionContext('failed'),
  after_session_interrupted: sessionContext('interrupted'),
};

function sessionContext(status: string): z.ZodObject {
  return z.strictObject({
    session: sessionSchema.default({ id: 'session-1', status }),
    terminal_event: z
      .object({ type: z.string(), payload: jsonObject.default({}) })
      .loose()
      .default({ type: `session.${status}`, payload: {} }),
  });
}

const session = (status: string) => ({ id: 'session-1', status });

export const CAYU_CONTEXT_SAMPLES: Record<CayuPhaseId, Record<string, unknown>> = {
  before_tool_call: {
    tool_name: 'place_order',
    tool_call_id: 'call_1',
    arguments: { size: 'large' },
    task_id: null,
    session: session('running'),
  },
  after_tool_call: {
    tool_name: 'lookup_customer',
    tool_call_id: 'call_1',
    arguments: { customer_id: 'c-42' },
    task_id: null,
    session: session('running'),
    result: { content: '{"name": "Ada", "ssn": "123-45-6789"}', artifacts: [], is_error: false },
  },
  after_session_completed: {
    session: session('completed'),
    terminal_event: { type: 'session.completed', payload: {} },
  },
  after_session_failed: {
    session: session('failed'),
    terminal_event: { type: 'session.failed', payload: { error: 'tool crashed' } },
  },
  after_session_interrupted: {
    session: session('interrupted'),
    terminal_event: { type: 'session.interrupted', payload: {} },
  },
};

export function validateCayuContext(
  phase: CayuPhaseId,
  input: unknown,
): { ok: true; payload: Record<string, unknown> } | { ok: false; errors: string[] } {
  if (input === null || typeof input !== 'object' || Array.isArray(input))
    return { ok: false, errors: [`(root): expected a JSON object with the ${phase} context data`] };
  const parsed = safeParseKeepingKeys(
    CAYU_CONTEXT_SCHEMAS[phase],
    withoutSchemaKey(input as Record<string, unknown>),
  );
  return parsed.success
    ? { ok: true, payload: parsed.data as Record<string, unknown> }
    : { ok: false, errors: formatIssues(parsed.error) };
}
