// The `model:` key of a scenario (and `user_simulation.model`): which OpenAI-compatible Chat
// Completions endpoint plays a part, and how it is called. The key itself never appears here:
// `api_key_env` names the environment variable that holds it.
import { z } from 'zod';

/** Bounds: a provider call Hooksmith waits for, and the retries a 429 may cost. */
export const MODEL_LIMITS = {
  timeoutMs: 600_000,
  maxRetries: 5,
  /** The longest Retry-After Hooksmith honours; longer ones fail the call with the provider's message. */
  retryAfterMs: 60_000,
  maxTokens: 1_000_000,
} as const;

export const modelConfig = z
  .strictObject({
    provider: z
      .literal('openai-compatible')
      .default('openai-compatible')
      .describe('The Chat Completions API: OpenAI, Azure OpenAI, Ollama, vLLM, LM Studio, LiteLLM proxies.'),
    base_url: z
      .url({ protocol: /^https?$/ })
      .default('https://api.openai.com/v1')
      .describe('The API base, e.g. http://127.0.0.1:11434/v1 for Ollama.'),
    model: z.string().min(1).describe('The model name the endpoint serves.'),
    api_key_env: z
      .string()
      .regex(/^[A-Za-z_][A-Za-z0-9_]*$/)
      .optional()
      .describe(
        'The environment variable holding the API key (never the key itself). Unset: no key is sent, and recording is off unless asked for.',
      ),
    temperature: z.number().min(0).max(2).optional(),
    max_tokens: z.number().int().positive().max(MODEL_LIMITS.maxTokens).optional(),
    timeout_ms: z
      .number()
      .int()
      .positive()
      .max(MODEL_LIMITS.timeoutMs)
      .default(60_000)
      .describe('A call taking longer fails as a provider timeout.'),
    max_retries: z
      .number()
      .int()
      .nonnegative()
      .max(MODEL_LIMITS.maxRetries)
      .default(2)
      .describe('Retries after a 429 (its Retry-After honoured up to 60 s) or a 5xx.'),
  })
  .describe('A real model, called through the OpenAI-compatible Chat Completions API.');

export type ModelConfig = z.infer<typeof modelConfig>;

/** `--record`: call the model for requests the cassette lacks, for every request, or never. */
export const RECORD_MODES = ['missing', 'all', 'none'] as const;
export type RecordMode = (typeof RECORD_MODES)[number];

/**
 * The mode when none is asked for: replay only in CI (`CI` set) and when the key is not set;
 * else record what the cassette lacks.
 */
export function defaultRecordMode(config: ModelConfig, env: NodeJS.ProcessEnv = process.env): RecordMode {
  if (env.CI) return 'none';
  if (!config.api_key_env || !env[config.api_key_env]) return 'none';
  return 'missing';
}
