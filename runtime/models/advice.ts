// What a cassette message tells the user to do, in the words of where it is read: the CLI names its
// flags (--record), the editor its settings and actions (hooksmith.modelRecord, Re-record), as
// debugpyInstallHint does for debugging (#45 item 2).
import type { ModelConfig } from './model-config';

/** Where a message is read. */
export type Audience = 'cli' | 'editor';

/** The action the editor offers beside a cassette that cannot answer. */
export const RE_RECORD = 'Re-record';

/** "; it needs the model's key in HOOKSMITH_TEST_KEY, which is not set …": only when it is unset. */
function keyNote(config: ModelConfig, env: NodeJS.ProcessEnv, audience: Audience): string {
  const name = config.api_key_env;
  if (!name || env[name]) return '';
  const where = audience === 'editor' ? "VS Code's environment" : 'the environment';
  return `; it needs the model's key in ${name}, which is not set in ${where}`;
}

/** How to record an exchange the cassette lacks. */
export function recordAdvice(config: ModelConfig, env: NodeJS.ProcessEnv, audience: Audience): string {
  const key = keyNote(config, env, audience);
  return audience === 'editor'
    ? `record it with ${RE_RECORD}, or set hooksmith.modelRecord to "missing"${key}`
    : `record it with --record missing and the model's key set${key}`;
}

/** How to record again over exchanges that no longer match (the conversation or the prompt changed). */
export function reRecordAdvice(config: ModelConfig, env: NodeJS.ProcessEnv, audience: Audience): string {
  const key = keyNote(config, env, audience);
  return audience === 'editor'
    ? `${RE_RECORD} calls the model afresh and saves the cassette${key}`
    : `re-record with --record missing${key}`;
}
