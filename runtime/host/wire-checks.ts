// What crosses the wire is checked both ways. A request JSON cannot carry faithfully is refused
// before it is sent. The host's answers are checked before anything reads them: a hook shares the
// host's process and can write lines of its own to the protocol descriptor; a line that is no
// answer the host writes is that hook's crash (PythonHost restarts the host), never Hooksmith's error.
import { z } from 'zod';
import { JSON_LIMITS, unfaithfulJson } from '../json/json-faithful';
import type { InvokeRequest, InvokeResult } from './protocol';

/** Why PythonHost refuses to send `req` (checked before it is turned into JSON), or undefined. */
export function refusedRequest(req: InvokeRequest): string | undefined {
  if (!Number.isFinite(req.timeoutMs) || req.timeoutMs < 0)
    return `timeoutMs must be a finite number ≥ 0, got ${String(req.timeoutMs)}`;
  const unfaithful = unfaithfulJson(req.payload);
  if (unfaithful) return `the payload holds a value JSON cannot carry faithfully: ${unfaithful}`;
  return undefined;
}

/** Why a request line is too long to send, or undefined. */
export function oversizedRequest(line: string): string | undefined {
  if (line.length <= JSON_LIMITS.bytes + 64 * 1024) return undefined;
  return `the payload is ${(line.length / 1024 / 1024).toFixed(1)} MiB as JSON, over the ${JSON_LIMITS.bytes / 1024 / 1024} MiB limit for payloads`;
}

/** The answer to a request PythonHost does not send. */
export const refusal = (message: string): InvokeResult => ({
  status: 'invalid-request',
  message,
  durationMs: 0,
  output: { text: '', droppedChars: 0 },
});

const pyType = z.object({ name: z.string(), module: z.string(), qualname: z.string() });
const frame = z.object({
  file: z.string(),
  line: z.number(),
  function: z.string(),
  text: z.string().optional(),
});
const exception = z.object({
  type: pyType,
  message: z.string(),
  feedback: z.string().optional(),
  reason: z.string().optional(),
  signal: z.enum(['RetryModel', 'HookRejection']).nullable(),
  baseException: z.boolean(),
  traceback: z.array(frame),
  formatted: z.string(),
  syntax: z.object({ file: z.string(), line: z.number(), column: z.number(), text: z.string() }).optional(),
});
const base = {
  durationMs: z.number(),
  output: z.object({ text: z.string(), droppedChars: z.number() }),
  module: z.string().optional(),
  load: z.enum(['fresh', 'cached', 'reloaded']).optional(),
  hostChanged: z.array(z.string()).optional(),
  actions: z
    .array(
      z.object({ method: z.string(), args: z.array(z.unknown()), kwargs: z.record(z.string(), z.unknown()) }),
    )
    .optional(),
  hookName: z.string().optional(),
};
const result = z.discriminatedUnion('status', [
  z.object({ ...base, status: z.literal('returned'), valueType: pyType, value: z.unknown() }),
  z.object({ ...base, status: z.literal('raised'), exception }),
  z.object({ ...base, status: z.literal('timed-out'), killed: z.literal(false), timeoutMs: z.number() }),
  z.object({
    ...base,
    status: z.literal('load-error'),
    stage: z.enum(['import', 'handler', 'instantiate']),
    exception,
  }),
  z.object({ ...base, status: z.literal('invalid-request'), message: z.string() }),
]);

/** Why `msg` is no invoke answer the host writes (in words), or undefined when it is one. */
export function malformedAnswer(msg: Record<string, unknown>): string | undefined {
  const parsed = result.safeParse(msg);
  if (parsed.success) return undefined;
  const issue = parsed.error.issues[0]!;
  return `${issue.path.join('.') || 'status'}: ${issue.message}`;
}
