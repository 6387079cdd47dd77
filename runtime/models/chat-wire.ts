// The engine's messages ⇄ the Chat Completions wire format. The request is built from the hooked
// model_request payload (messages as the hooks left them, their allow-listed model_settings over
// the scenario's), so what reaches the model is what the hooks made. Pure functions.
import { parseJson, stringifyJson } from '../json/lossless-json';
import type { ModelConfig } from './model-config';

/** The request body as sent (never holds the key: it travels in a header). */
export type ChatRequest = Record<string, unknown>;

/** What the model answered: the assistant message as the API returned it. */
export interface ChatAnswer {
  message: { role?: string; content?: string | null; tool_calls?: WireToolCall[] };
  finish_reason?: string | null;
}

interface WireToolCall {
  id?: string;
  type?: string;
  function?: { name?: string; arguments?: string };
}

/** A tool the model may call: mock tools have no schema, so any JSON object of arguments is offered. */
export interface OfferedTool {
  name: string;
  description?: string;
  parameters?: Record<string, unknown>;
}

const ANY_OBJECT = { type: 'object', properties: {}, additionalProperties: true };

/** An assistant message's tool calls in the engine's form become the API's; anything else passes as is. */
function wireMessage(m: unknown): unknown {
  if (!m || typeof m !== 'object' || Array.isArray(m)) return m;
  const msg = m as Record<string, unknown>;
  if (!Array.isArray(msg.tool_calls)) return msg;
  const calls = msg.tool_calls.map((c: Record<string, unknown>) =>
    c && typeof c === 'object' && 'tool_name' in c
      ? {
          id: c.id,
          type: 'function',
          function: { name: c.tool_name, arguments: stringifyJson(c.tool_args ?? {}) },
        }
      : c,
  );
  return { ...msg, tool_calls: calls };
}

export function chatRequest(
  config: ModelConfig,
  payload: { messages?: unknown; model_settings?: unknown },
  tools: readonly OfferedTool[],
): ChatRequest {
  const settings =
    payload.model_settings && typeof payload.model_settings === 'object' ? payload.model_settings : {};
  const messages = Array.isArray(payload.messages) ? payload.messages.map(wireMessage) : [];
  return {
    model: config.model,
    messages,
    ...(tools.length
      ? {
          tools: tools.map((t) => ({
            type: 'function',
            function: {
              name: t.name,
              ...(t.description ? { description: t.description } : {}),
              parameters: t.parameters ?? ANY_OBJECT,
            },
          })),
        }
      : {}),
    ...(config.temperature !== undefined ? { temperature: config.temperature } : {}),
    ...(config.max_tokens !== undefined ? { max_tokens: config.max_tokens } : {}),
    ...settings,
  };
}

/** The answer in the engine's terms, or why it is malformed. */
export type EngineAnswer =
  | {
      text: string | null;
      tool_calls: { id?: string; tool_name: string; tool_args: Record<string, unknown> }[];
    }
  | { malformed: string };

export function engineAnswer(answer: ChatAnswer): EngineAnswer {
  const msg = answer.message;
  if (!msg || typeof msg !== 'object') return { malformed: 'the response has no message' };
  const calls = [];
  for (const [i, c] of (msg.tool_calls ?? []).entries()) {
    const name = c?.function?.name;
    if (typeof name !== 'string' || !name) return { malformed: `tool_calls[${i}] has no function name` };
    let args: unknown;
    try {
      args = parseJson(c.function?.arguments || '{}');
    } catch (err) {
      return {
        malformed: `tool_calls[${i}] (${name}): its arguments are not JSON: ${err instanceof Error ? err.message : String(err)}`,
      };
    }
    if (!args || typeof args !== 'object' || Array.isArray(args))
      return { malformed: `tool_calls[${i}] (${name}): its arguments are not a JSON object` };
    calls.push({
      ...(c.id ? { id: c.id } : {}),
      tool_name: name,
      tool_args: args as Record<string, unknown>,
    });
  }
  return { text: typeof msg.content === 'string' ? msg.content : null, tool_calls: calls };
}
