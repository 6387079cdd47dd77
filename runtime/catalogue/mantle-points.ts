// The Mantle insertion points (spec/mantle-hooks.md, "Insertion points").
// The single source of truth for point names, decorators, signals, policies and effects.
import type { PayloadTypeName } from './mantle-payloads';

export const MANTLE_MODULE = 'rasa.mantle.hooks';

export type Lane = 'observe' | 'modify';
export type ControlSignal = 'RetryModel' | 'HookRejection';
export type FailPolicy = 'closed' | 'open';

export const CONTROL_SIGNALS: readonly ControlSignal[] = ['RetryModel', 'HookRejection'];

/** Default `timeout_ms` per lane ("Timeouts"). */
export const DEFAULT_TIMEOUT_MS: Record<Lane, number> = { observe: 100, modify: 500 };

export const POINT_IDS = [
  'turn_started',
  'turn_finished',
  'incoming_message',
  'model_request',
  'model_response',
  'tool_call',
  'tool_result',
  'knowledge_query',
  'knowledge_results',
  'outgoing_text',
] as const;
export type PointId = (typeof POINT_IDS)[number];

export interface MantlePoint {
  id: PointId;
  /** Words for people: "model request". */
  title: string;
  payloadType: PayloadTypeName;
  /** Modify lane exists (turn points are observe-only). */
  hasModifyLane: boolean;
  /** Control signals a modify hook may raise here. */
  signals: readonly ControlSignal[];
  /** What a modify-hook crash / timeout does (undefined: no modify lane). */
  failPolicy?: FailPolicy;
  /** Invoked by the engine (rasa-pro 3.21: engine-lines/rasa-pro-3.21.json, each point's callSites). */
  wired: boolean;
  /** What the engine does when the modify hook crashes or times out. */
  failEffect?: string;
  /** What the engine does on each allowed signal. */
  signalEffects: Partial<Record<ControlSignal, string>>;
  /** What the engine does with a signal raised where it is not allowed. */
  unsupportedSignalEffect: string;
  /** When the point fires, for hovers and docs. */
  when: string;
}

const LOGGED_AND_DISCARDED =
  'the unsupported signal is logged and discarded; the engine keeps the original payload';

/**
 * The tool result the model receives when the knowledge search yields nothing: retrieval found no
 * passages (or failed), a results hook emptied them, or a failing query hook skipped the search —
 * one text for all (spec "Knowledge search": "the same safe empty-result note used when retrieval fails").
 */
export const SAFE_EMPTY_RESULT_NOTE = 'No relevant passages were found.';

export const MANTLE_POINTS: readonly MantlePoint[] = [
  {
    id: 'turn_started',
    title: 'turn started',
    payloadType: 'TurnStartedPayload',
    hasModifyLane: false,
    signals: [],
    wired: true,
    signalEffects: {},
    unsupportedSignalEffect: 'observers cannot signal: the exception is logged and discarded',
    when: 'Once per Mantle turn, when the turn begins. Always paired with turn finished.',
  },
  {
    id: 'turn_finished',
    title: 'turn finished',
    payloadType: 'TurnFinishedPayload',
    hasModifyLane: false,
    signals: [],
    wired: true,
    signalEffects: {},
    unsupportedSignalEffect: 'observers cannot signal: the exception is logged and discarded',
    when: 'Once per Mantle turn, when it ends (completed, cancelled or error), including when the turn fails unexpectedly.',
  },
  {
    id: 'incoming_message',
    title: 'incoming message',
    payloadType: 'IncomingMessagePayload',
    hasModifyLane: true,
    signals: ['HookRejection'],
    failPolicy: 'closed',
    wired: true,
    failEffect:
      'fail-closed: the engine does not run on the original message; the user receives the incoming-message fallback',
    signalEffects: {
      HookRejection:
        'the user message is marked discarded, the LLM never sees it, and the user receives the incoming-message fallback',
    },
    unsupportedSignalEffect: LOGGED_AND_DISCARDED,
    when: 'On final user text, before the engine stores and handles it (text only).',
  },
  {
    id: 'model_request',
    title: 'model request',
    payloadType: 'ModelRequestPayload',
    hasModifyLane: true,
    signals: [],
    failPolicy: 'closed',
    wired: true,
    failEffect: 'fail-closed: the LLM call is skipped and the user hears utter_model_request_hook_error',
    signalEffects: {},
    unsupportedSignalEffect:
      'the unsupported signal is logged and ignored; the engine keeps the last good request and still calls the LLM',
    when: 'On each main LLM loop iteration and on rephrase, confirm-rephrase and the post-activate set_fields fill, after the prompt is trimmed to the token budget and before the provider call.',
  },
  {
    id: 'model_response',
    title: 'model response',
    payloadType: 'ModelResponsePayload',
    hasModifyLane: true,
    signals: ['RetryModel'],
    failPolicy: 'open',
    wired: true,
    failEffect: 'fail-open: the engine keeps the original response and continues',
    signalEffects: {
      RetryModel:
        'the response is discarded (no text emitted, no tool dispatched) and the feedback steers the next model iteration (next request only; counts toward the iteration cap)',
    },
    unsupportedSignalEffect: 'the unsupported signal is logged and discarded; the original response proceeds',
    when: 'On each main LLM loop iteration and on the quiet calls (rephrase, confirm-rephrase, set_fields fill), after the provider returns and before any text emit or tool dispatch.',
  },
  {
    id: 'tool_call',
    title: 'tool call',
    payloadType: 'ToolCallPayload',
    hasModifyLane: true,
    signals: ['RetryModel'],
    failPolicy: 'closed',
    wired: true,
    failEffect:
      'fail-closed: the batch is not dispatched, accompanying text is not emitted, and the user hears utter_tool_call_hook_error',
    signalEffects: {
      RetryModel:
        'the entire tool-call batch is discarded (no tool runs, accompanying text is not emitted) and the feedback steers the next model iteration',
    },
    unsupportedSignalEffect:
      'the unsupported signal is logged and discarded; the original call proceeds through preflight',
    when: 'Batch preflight: once per tool call in the LLM batch, sequentially in batch order, before routing, the knowledge_searched latch or any tool runs.',
  },
  {
    id: 'tool_result',
    title: 'tool result',
    payloadType: 'ToolResultPayload',
    hasModifyLane: true,
    signals: [],
    failPolicy: 'open',
    wired: true,
    failEffect: 'fail-open: the engine keeps the original tool result and continues',
    signalEffects: {},
    unsupportedSignalEffect:
      'the unsupported signal is logged and ignored; the engine keeps the last good result',
    when: 'After each dispatched tool returns, before the result is persisted on tool_executed and replayed to the model.',
  },
  {
    id: 'knowledge_query',
    title: 'knowledge query',
    payloadType: 'KnowledgeQueryPayload',
    hasModifyLane: true,
    signals: [],
    failPolicy: 'closed',
    wired: true,
    failEffect: `fail-closed: the search is skipped and the model receives the safe empty-result note, as when retrieval fails ("${SAFE_EMPTY_RESULT_NOTE}")`,
    signalEffects: {},
    unsupportedSignalEffect:
      'invalid modify behaviour: the signal is logged and discarded; the original query is searched',
    when: 'Around search_knowledge: after the empty-query guard, before the references index is searched. Change-only.',
  },
  {
    id: 'knowledge_results',
    title: 'knowledge results',
    payloadType: 'KnowledgeResultsPayload',
    hasModifyLane: true,
    signals: [],
    failPolicy: 'open',
    wired: true,
    failEffect: 'fail-open: the engine keeps the original passages',
    signalEffects: {},
    unsupportedSignalEffect:
      'invalid modify behaviour: the signal is logged and discarded; the original passages are kept',
    when: 'After retrieval, before passages are serialized back to the model. Change-only.',
  },
  {
    id: 'outgoing_text',
    title: 'outgoing text',
    payloadType: 'OutgoingTextPayload',
    hasModifyLane: true,
    signals: ['HookRejection'],
    failPolicy: 'open',
    wired: true,
    failEffect: 'fail-open: the original text is stored and sent',
    signalEffects: {
      HookRejection:
        'the original response is not emitted; a discarded bot utterance is stored and the user receives the outgoing-text fallback',
    },
    unsupportedSignalEffect: LOGGED_AND_DISCARDED,
    when: 'On each completed agent utterance, before the text is sent to the user (text only).',
  },
];

export interface HookDecorator {
  /** The decorator's name as exported by rasa.mantle.hooks, e.g. "modify_tool_call". */
  name: string;
  point: MantlePoint;
  lane: Lane;
}

/** The point's name as the selected engine line spells it in decorators (api-lines.ts renames). */
const spelledPoints = new Map<string, string>();

export function decoratorName(point: PointId, lane: Lane): string {
  return `${lane === 'observe' ? 'on' : 'modify'}_${spelledPoints.get(point) ?? point}`;
}

/** The point names the selected line spells differently (api-lines.ts), then the tables follow. */
export function spellPoints(renames: ReadonlyMap<string, string>): void {
  spelledPoints.clear();
  for (const [from, to] of renames) spelledPoints.set(from, to);
  for (const d of HOOK_DECORATORS as HookDecorator[]) d.name = decoratorName(d.point.id, d.lane);
  decoratorsByName.clear();
  for (const d of HOOK_DECORATORS) decoratorsByName.set(d.name, d);
  // The line's docs still spell the old names in places: both find the decorator.
  for (const d of HOOK_DECORATORS)
    if (spelledPoints.has(d.point.id)) decoratorsByName.set(oldDecoratorName(d), d);
}

/** The catalogue's spelling of a decorator a line renamed (`modify_outgoing_text`). */
function oldDecoratorName(d: HookDecorator): string {
  return `${d.lane === 'observe' ? 'on' : 'modify'}_${d.point.id}`;
}

/** The names the selected line renamed, in the catalogue's spelling: still accepted. */
export function oldDecoratorNames(): string[] {
  return HOOK_DECORATORS.filter((d) => spelledPoints.has(d.point.id)).map(oldDecoratorName);
}

/** The point's id as the selected line spells it ("outgoing_message" on the newest Mantle line). */
export function spelledPoint(id: PointId): string {
  return spelledPoints.get(id) ?? id;
}

/** The decorators: an observe one per point, a modify one per point with a modify lane. */
export const HOOK_DECORATORS: readonly HookDecorator[] = MANTLE_POINTS.flatMap((point) => {
  const lanes: Lane[] = point.hasModifyLane ? ['observe', 'modify'] : ['observe'];
  return lanes.map((lane) => ({ name: decoratorName(point.id, lane), point, lane }));
});

const decoratorsByName = new Map(HOOK_DECORATORS.map((d) => [d.name, d]));
const pointsById = new Map(MANTLE_POINTS.map((p) => [p.id, p]));

export function findDecorator(name: string): HookDecorator | undefined {
  return decoratorsByName.get(name);
}

export function getPoint(id: PointId): MantlePoint {
  const p = pointsById.get(id);
  if (!p) throw new Error(`unknown point ${id}`);
  return p;
}

/** A point by its catalogue id or the id the selected line spells. */
export function findPoint(id: string): MantlePoint | undefined {
  const spelled = [...spelledPoints].find(([, to]) => to === id)?.[0];
  return pointsById.get((spelled ?? id) as PointId);
}

/** Whether two names (a catalogue id, a line's spelling; other names as text) are the same point. */
export function samePointName(a: string, b: string): boolean {
  if (a === b) return true;
  const p = findPoint(a);
  return p !== undefined && p === findPoint(b);
}

/** Quiet LLM calls on which model request/response hooks also run; RetryModel there discards the completion only. */
export const QUIET_CALLS = ['rephrase', 'confirm_rephrase', 'set_fields'] as const;
export type QuietCall = (typeof QUIET_CALLS)[number];

/** Fallback responses the user hears when a fail-closed point fails (overridable in responses.yml). */
export const FALLBACK_RESPONSES = {
  model_request: 'utter_model_request_hook_error',
  tool_call: 'utter_tool_call_hook_error',
} as const;
