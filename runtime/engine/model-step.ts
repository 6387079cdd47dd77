// The simulator's model step: a real model plays the agent (scenario `model:`, or one given for
// every scenario) once the scripted completions run out. The request is the hooked model_request
// payload; the answer becomes a completion the turn plays like a scripted one, so the
// model_response hooks, RetryModel and the mock tools apply unchanged. Exchanges go through the
// scenario's cassette (runtime/models). The only engine module that calls models/.
import * as path from 'node:path';
import type { ModelsPlayed } from './api';
import type { Scenario, ScenarioCompletion, UserSimulation } from './scenario-schema';
import {
  cassetteFile,
  chatRequest,
  defaultRecordMode,
  engineAnswer,
  ModelPlayer,
  type Exchange,
  type ModelConfig,
  type OfferedTool,
  type Audience,
  type RecordMode,
} from '../models';

export { CassetteMismatch, CassetteError, checkCassettePath } from '../models';
export type { RecordMode, ModelConfig, Audience } from '../models';

/** How models are played in a run (the CLI's --record, --model; repeats). */
export interface ModelRunOptions {
  /** Default: none in CI or without the key, else missing (defaultRecordMode). */
  record?: RecordMode;
  /** A model for every scenario that names none. */
  model?: ModelConfig;
  /** A repeat run: every request goes to the model afresh when recording is on. */
  fresh?: boolean;
  /** A changed request stops with its difference rather than being recorded over (the editor). */
  keepRecorded?: boolean;
  /** Whose words the messages use: the CLI's flags, or the editor's settings and actions. */
  audience?: Audience;
}

const KNOWLEDGE_PARAMETERS = {
  type: 'object',
  properties: { query: { type: 'string' } },
  required: ['query'],
};

/** Why a scenario with user_simulation but no model cannot play, and where a model is given. */
export function needsModel(audience: Audience = 'cli'): string {
  const where = audience === 'editor' ? 'the hooksmith.model setting' : '--model';
  return `user_simulation needs a model for the agent (and the user): \`model:\` in the scenario, or ${where}`;
}

export const NEEDS_MODEL = needsModel('cli');

/** What the simulated user says it is done with: its goal reached, or out of reach. */
export const USER_DONE = '[DONE]';

/** The briefing of the model that plays the user. */
export function userBriefing(sim: UserSimulation): string {
  const when = sim.stop_when ?? 'your goal is reached, or it clearly cannot be';
  return [
    'You play a user talking to an assistant, to test it. Stay in your role; never act as the assistant.',
    `Who you are and what you want: ${sim.context.trim()}`,
    'Write only your next message to the assistant, short, as that user would.',
    `When ${when}, reply with exactly ${USER_DONE} and nothing else.`,
  ].join('\n');
}

/** The simulated user's next move. */
export type UserMove = { text: string } | { done: true } | { error: string };

const faultText = (f: { kind: string; status?: number; message: string }) =>
  `${f.kind}${f.status ? ` ${f.status}` : ''}: ${f.message}`;

/**
 * An answer the engine cannot use (tool-call arguments that are not JSON, no message) is the
 * model's fault like a malformed body: kept on the exchange, so the run's verdict fails (exit 1).
 */
function malformedAnswer(ex: Exchange, why: string): string {
  ex.fault = { kind: 'malformed', message: why };
  return `malformed: ${why}`;
}

const describe = (m: ModelConfig) => `${m.model} (${m.provider}, ${m.base_url})`;

/** The model parts of one simulation, or undefined when the scenario plays scripted only. */
export class SimModels {
  private constructor(
    readonly agent: ModelConfig,
    readonly user: ModelConfig | undefined,
    readonly player: ModelPlayer,
    private readonly cassette: string | undefined,
  ) {}

  static of(
    sc: Scenario,
    source: string,
    agentRoot: string,
    opts: ModelRunOptions = {},
  ): SimModels | undefined {
    const agent = sc.model ?? opts.model;
    if (!agent) return undefined;
    const user = sc.user_simulation ? (sc.user_simulation.model ?? agent) : undefined;
    let mode = opts.record ?? defaultRecordMode(agent);
    if (opts.fresh && mode !== 'none') mode = 'all';
    const file = source === '<inline>' ? undefined : cassetteFile(agentRoot, source);
    const player = new ModelPlayer({
      mode,
      ...(file ? { file } : {}),
      ...(opts.keepRecorded ? { keepRecorded: true } : {}),
      ...(opts.audience ? { audience: opts.audience } : {}),
    });
    return new SimModels(agent, user, player, file);
  }

  /** The timeline's plain statement of who plays the agent (and the user). */
  banner(): string {
    const user = this.user ? ` An LLM plays the user: ${describe(this.user)}.` : '';
    return `Hooksmith plays the agent with the model ${describe(this.agent)}, the scenario's system_prompt as its instructions — not the agent's own engine configuration.${user} Recording: ${this.player.mode}${this.cassette ? ` (${path.basename(this.cassette)})` : ''}.`;
  }

  /** The simulated user's next message, from what was said so far (its own lines as the assistant's). */
  async userMove(
    sim: UserSimulation,
    said: readonly { role: string; text: string }[],
    turn: number,
  ): Promise<UserMove> {
    const config = this.user!;
    const messages = [
      { role: 'system', content: userBriefing(sim) },
      { role: 'user', content: '(The conversation starts. Write your first message.)' },
      ...said.map((e) => ({ role: e.role === 'user' ? 'assistant' : 'user', content: e.text })),
    ];
    const ex = await this.player.exchange('user', turn, config, chatRequest(config, { messages }, []));
    if (ex.fault) return { error: faultText(ex.fault) };
    const answer = engineAnswer(ex.answer!);
    if ('malformed' in answer) return { error: malformedAnswer(ex, answer.malformed) };
    const text = (answer.text ?? '').trim();
    if (!text) return { error: 'the simulated user answered empty' };
    return text.includes(USER_DONE) ? { done: true } : { text };
  }

  /** One model completion for the hooked request; a fault becomes the provider error it is. */
  async complete(
    payload: Record<string, unknown>,
    sc: Scenario,
    turn: number,
    note: (text: string) => void,
  ): Promise<ScenarioCompletion> {
    const tools: OfferedTool[] = [
      ...Object.keys(sc.tools).map((name) => ({ name })),
      ...(sc.knowledge ? [{ name: sc.knowledge.tool, parameters: KNOWLEDGE_PARAMETERS }] : []),
    ];
    const ex = await this.player.exchange('agent', turn, this.agent, chatRequest(this.agent, payload, tools));
    for (const n of ex.notes) note(n);
    const base = { tool_calls: [], latency_ms: ex.latencyMs };
    if (ex.fault)
      return {
        ...base,
        error: faultText(ex.fault),
      };
    const answer = engineAnswer(ex.answer!);
    if ('malformed' in answer) return { ...base, error: malformedAnswer(ex, answer.malformed) };
    return { ...base, text: answer.text, tool_calls: answer.tool_calls };
  }

  summary(failure?: string): ModelsPlayed {
    const unsaved = this.player.recording();
    const keys = [...new Set([this.agent.api_key_env, this.user?.api_key_env])]
      .filter((env): env is string => !!env)
      .map((env) => ({ env, set: !!process.env[env] }));
    return {
      agent: { provider: this.agent.provider, model: this.agent.model, base_url: this.agent.base_url },
      ...(this.user
        ? { user: { provider: this.user.provider, model: this.user.model, base_url: this.user.base_url } }
        : {}),
      record: this.player.mode,
      ...(this.cassette ? { cassette: this.cassette } : {}),
      ...(unsaved ? { unsaved } : {}),
      exchanges: this.player.exchanges.map((e) => ({
        role: e.role,
        turn: e.turn,
        latencyMs: e.latencyMs,
        source: e.source,
        ...(e.fault ? { fault: `${e.fault.kind}${e.fault.status ? ` ${e.fault.status}` : ''}` } : {}),
      })),
      ...(failure ? { failure } : {}),
      ...(keys.length ? { keys } : {}),
    };
  }
}
