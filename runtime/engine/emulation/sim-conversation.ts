// The state one simulation's turns share (the conversation) and each turn's own, and how a
// conversation starts: kept apart from simulator.ts, which plays the turns on it.
import { EMPTY_CALL_INFO } from '../../catalogue';
import type { WiringSource } from '../../catalogue/wiring';
import type { TranscriptEntry } from '../api';
import { oneApp, type HostPort } from '../host-port';
import type { Scenario } from '../scenario-schema';
import type { AgentHooks } from '../agent-hooks';
import type { LastRequest } from './sim-history';
import type { SimClock } from './sim-dispatch';
import type { SimContext } from './sim-points';
import type { SimModels } from '../model-step';

/** What the turns of one simulation share. */
export interface Conversation {
  ctx: SimContext;
  identity: Record<string, unknown>;
  clock: SimClock;
  /** The history as the engine persists it (the system prompt first), appended to, never copied. */
  messages: Record<string, unknown>[];
  /** The previous main-loop model request: its first event and the history length it carried. */
  lastRequest?: LastRequest;
  /** A real model plays the agent once the scripted completions run out. */
  models?: SimModels;
  /** Why the cassette could not answer: the conversation stops there. */
  cassetteFailure?: string;
}

export interface Turn extends Conversation {
  /** This turn's scenario (a conversation's turn: sim-turns.ts turnScenario). */
  sc: Scenario;
  /** Index of this turn's user message in `messages`. */
  userAt: number;
  /** Tool-call ids: `call_<iteration>_<i>`; a conversation's are `call_t<turn>_…`, unique across turns. */
  callPrefix: string;
  /** This turn's number (1-based). */
  turnNo: number;
  next: number;
  iteration: number;
  feedback?: string;
}

export const say = (ctx: SimContext, e: TranscriptEntry) => ctx.transcript.push(e);
export const note = (ctx: SimContext, text: string) => say(ctx, { role: 'engine', text });

function identityOf(sc: Scenario): Record<string, unknown> {
  const channel = typeof sc.channel === 'string' ? { name: sc.channel, metadata: {} } : sc.channel;
  // rasa-pro 3.21's CallInfo is never None (payloads.py:34): no call is the empty one.
  return { sender_id: sc.sender_id, call: sc.call ?? { ...EMPTY_CALL_INFO, metadata: {} }, channel };
}

/** An empty conversation on the scenario's system prompt: nothing fired, nothing said yet. */
export function newConversation(
  host: HostPort,
  hooks: AgentHooks,
  sc: Scenario,
  wiring?: WiringSource,
  models?: SimModels,
): Conversation {
  const ctx: SimContext = {
    host: oneApp(host),
    hooks,
    events: [],
    transcript: [],
    tools: [],
    context: 'turn',
    background: [],
    ...(wiring ? { wiring } : {}),
  };
  return {
    ctx,
    identity: identityOf(sc),
    clock: { scriptedMs: 0 },
    messages: [{ role: 'system', content: sc.system_prompt }],
    ...(models ? { models } : {}),
  };
}
