// One Chat Completions call through the official `openai` client, with Hooksmith's own bounded
// retries (429 with its Retry-After, 5xx) so each attempt can be told in the timeline. Every
// failure becomes a ModelFault carrying the provider's message, with the key redacted.
import OpenAI from 'openai';
import type { ChatAnswer, ChatRequest } from './chat-wire';
import { MODEL_LIMITS, type ModelConfig } from './model-config';

export type FaultKind =
  'auth' | 'rate-limit' | 'server' | 'timeout' | 'connection' | 'malformed' | 'bad-request';

/** A provider failure, as recorded in a cassette and told in the timeline. */
export interface ModelFault {
  kind: FaultKind;
  status?: number;
  message: string;
}

export interface CallResult {
  answer?: ChatAnswer;
  fault?: ModelFault;
  latencyMs: number;
  /** What happened on the way (retries). */
  notes: string[];
}

export type Sleep = (ms: number) => Promise<void>;
const realSleep: Sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Every occurrence of the key (and its `Bearer` form) replaced: keys never reach a message. */
export function redact(text: string, key: string | undefined): string {
  return key && key.length >= 4 ? text.split(key).join('[redacted]') : text;
}

function faultOf(err: unknown): ModelFault {
  if (err instanceof OpenAI.APIConnectionTimeoutError)
    return { kind: 'timeout', message: 'the provider did not answer in time' };
  if (err instanceof OpenAI.APIConnectionError)
    return { kind: 'connection', message: `connection failed: ${causeOf(err)}` };
  if (err instanceof OpenAI.APIError) {
    const status = err.status ?? 0;
    const kind: FaultKind =
      status === 401 || status === 403
        ? 'auth'
        : status === 429
          ? 'rate-limit'
          : status >= 500
            ? 'server'
            : 'bad-request';
    return { kind, status, message: err.message };
  }
  // The body did not parse (malformed JSON) or ended early (a response cut short).
  return { kind: 'malformed', message: `the response could not be read: ${causeOf(err)}` };
}

function causeOf(err: unknown): string {
  const e = err as { message?: string; cause?: { message?: string; code?: string } };
  const cause = e.cause?.message ?? e.cause?.code;
  return [e.message, cause].filter(Boolean).join(': ') || String(err);
}

/** Retry-After in seconds or as an HTTP date, or retry-after-ms; undefined when absent. */
export function retryAfterMs(headers: Headers | undefined, now = Date.now()): number | undefined {
  const ms = headers?.get('retry-after-ms');
  if (ms && Number.isFinite(Number(ms))) return Math.max(0, Number(ms));
  const after = headers?.get('retry-after');
  if (!after) return undefined;
  if (/^\d+(\.\d+)?$/.test(after.trim())) return Number(after) * 1000;
  const at = Date.parse(after);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

function isAnswer(
  v: unknown,
): v is { choices: { message: ChatAnswer['message']; finish_reason?: string }[] } {
  const c = (v as { choices?: unknown })?.choices;
  return Array.isArray(c) && c.length > 0 && typeof c[0]?.message === 'object' && c[0].message !== null;
}

export async function callChat(
  config: ModelConfig,
  request: ChatRequest,
  key: string | undefined,
  sleep: Sleep = realSleep,
): Promise<CallResult> {
  const client = new OpenAI({
    // Local servers (Ollama, vLLM) take any key; the client insists on one.
    apiKey: key ?? 'no-key',
    baseURL: config.base_url,
    timeout: config.timeout_ms,
    maxRetries: 0,
  });
  const notes: string[] = [];
  const t0 = performance.now();
  for (let attempt = 0; ; attempt++) {
    let fault: ModelFault;
    let wait: number | undefined;
    try {
      const body = (await client.chat.completions.create(
        request as unknown as OpenAI.ChatCompletionCreateParamsNonStreaming,
      )) as unknown;
      if (!isAnswer(body)) {
        fault = {
          kind: 'malformed',
          message: 'the response is not a chat completion (no choices[0].message)',
        };
      } else {
        const choice = body.choices[0]!;
        return {
          answer: { message: choice.message, finish_reason: choice.finish_reason ?? null },
          latencyMs: Math.round(performance.now() - t0),
          notes,
        };
      }
    } catch (err) {
      fault = faultOf(err);
      const status = fault.status ?? 0;
      if (status === 429 || status >= 500)
        wait = retryAfterMs((err as { headers?: Headers }).headers) ?? 500 * 2 ** attempt;
    }
    fault.message = redact(fault.message, key);
    const retriable = wait !== undefined && attempt < config.max_retries;
    if (retriable && wait! > MODEL_LIMITS.retryAfterMs) {
      fault.message += ` (Retry-After ${Math.round(wait! / 1000)} s is beyond the ${MODEL_LIMITS.retryAfterMs / 1000} s Hooksmith waits)`;
      return { fault, latencyMs: Math.round(performance.now() - t0), notes };
    }
    if (!retriable) {
      if (wait !== undefined && config.max_retries) fault.message += ` (after ${attempt + 1} attempts)`;
      return { fault, latencyMs: Math.round(performance.now() - t0), notes };
    }
    notes.push(
      `provider ${fault.status}: ${fault.message}; retried after ${wait} ms (attempt ${attempt + 2} of ${config.max_retries + 1})`,
    );
    await sleep(wait!);
  }
}
