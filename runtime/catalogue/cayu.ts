// Cayu runtime hooks (spec/cayu-runtime-hooks.md + DESIGN.md facts): phases, contexts, decisions.

/**
 * Every public path of the hook API, all accepted. The real package (cayu-dev/cayu) defines it in
 * `cayu.runtime.hooks` and re-exports it from `cayu.runtime` and `cayu`; the documentation names
 * `cayu.observability` (its page is `cayu.observability.hooks`). The first is what new code imports.
 */
export const CAYU_MODULES: readonly string[] = [
  'cayu.observability',
  'cayu.runtime.hooks',
  'cayu',
  'cayu.runtime',
  'cayu.observability.hooks',
];

export const CAYU_PHASE_IDS = [
  'before_tool_call',
  'after_tool_call',
  'after_session_completed',
  'after_session_failed',
  'after_session_interrupted',
] as const;
export type CayuPhaseId = (typeof CAYU_PHASE_IDS)[number];

export type CayuContextName = 'BeforeToolCallHookContext' | 'ToolCallHookContext' | 'RuntimeHookContext';
export type CayuDecisionName = 'BeforeToolCallDecision' | 'AfterToolCallDecision';

export interface CayuPhase {
  id: CayuPhaseId;
  context: CayuContextName;
  /** Decision type returned (None always allowed); undefined: the phase returns None. */
  decision?: CayuDecisionName;
  doc: string;
}

export const CAYU_PHASES: readonly CayuPhase[] = [
  {
    id: 'before_tool_call',
    context: 'BeforeToolCallHookContext',
    decision: 'BeforeToolCallDecision',
    doc: 'Runs after policy authorization, before the tool executes. Return None to proceed unchanged, or a BeforeToolCallDecision to modify the arguments, short-circuit with a synthetic result, or block the call.',
  },
  {
    id: 'after_tool_call',
    context: 'ToolCallHookContext',
    decision: 'AfterToolCallDecision',
    doc: 'Runs after the tool executes, before its result enters the transcript. Return None to pass the result through unchanged, or an AfterToolCallDecision to replace it.',
  },
  {
    id: 'after_session_completed',
    context: 'RuntimeHookContext',
    doc: 'Runs after a session reaches completed state.',
  },
  {
    id: 'after_session_failed',
    context: 'RuntimeHookContext',
    doc: 'Runs after a session reaches failed state.',
  },
  {
    id: 'after_session_interrupted',
    context: 'RuntimeHookContext',
    doc: 'Runs after a session reaches interrupted state.',
  },
];

export interface CayuAction {
  action: string;
  /** The field this action requires; it is valid with this action only. */
  companion?: string;
  doc: string;
}

export interface CayuDecision {
  name: CayuDecisionName;
  phase: CayuPhaseId;
  actions: readonly CayuAction[];
  /** Every companion field and its Python type. */
  fields: Readonly<Record<string, string>>;
  doc: string;
}

export const CAYU_DECISIONS: readonly CayuDecision[] = [
  {
    name: 'BeforeToolCallDecision',
    phase: 'before_tool_call',
    actions: [
      { action: 'proceed', doc: 'Run the tool unchanged (same as returning None).' },
      {
        action: 'proceed_modified',
        companion: 'modified_arguments',
        doc: 'Run the tool with modified_arguments.',
      },
      {
        action: 'short_circuit',
        companion: 'synthetic_result',
        doc: 'Skip the tool and use synthetic_result.',
      },
      {
        action: 'block',
        companion: 'block_reason',
        doc: 'Skip the tool and return an error result carrying block_reason (must not be blank).',
      },
    ],
    fields: {
      modified_arguments: 'dict[str, Any] | None',
      synthetic_result: 'ToolResult | None',
      block_reason: 'str | None',
    },
    doc: "A before_tool_call hook's instruction for the call it just inspected. Pydantic model with extra='forbid'.",
  },
  {
    name: 'AfterToolCallDecision',
    phase: 'after_tool_call',
    actions: [
      { action: 'pass_through', doc: 'Leave the result unchanged (same as returning None).' },
      {
        action: 'modify',
        companion: 'modified_result',
        doc: 'Replace the result with modified_result before it enters the transcript.',
      },
    ],
    fields: { modified_result: 'ToolResult | None' },
    doc: "An after_tool_call hook's instruction for the result it just inspected. Pydantic model with extra='forbid'.",
  },
];

export interface CayuContextType {
  name: CayuContextName;
  /** Read-only properties. */
  properties: Readonly<Record<string, string>>;
  doc: string;
}

const ACTION_CONTEXT_PROPERTIES = {
  hook_name: 'str',
  phase: 'RuntimeHookPhase',
  session: 'Session',
  execution_profile: 'ExecutionProfileIdentity | None',
  actions: 'list[dict[str, Any]]',
};

/** Async methods every context has; their calls are recorded as actions. */
export const CAYU_CONTEXT_METHODS: readonly string[] = [
  'fork_session',
  'dispatch',
  'dispatch_inline',
  'create_task',
  'emit_custom_event',
];

export const CAYU_CONTEXTS: readonly CayuContextType[] = [
  {
    name: 'BeforeToolCallHookContext',
    properties: {
      ...ACTION_CONTEXT_PROPERTIES,
      tool_name: 'str',
      tool_call_id: 'str',
      arguments: 'dict[str, Any]',
      task_id: 'str | None',
    },
    doc: 'The before_tool_call view of a call: identity + arguments, no result yet. `arguments` is a read-only copy; mutating it is a no-op.',
  },
  {
    name: 'ToolCallHookContext',
    properties: {
      ...ACTION_CONTEXT_PROPERTIES,
      tool_event: 'Event',
      tool_name: 'str',
      tool_call_id: 'str',
      arguments: 'dict[str, Any]',
      result: 'ToolResult',
      task_id: 'str | None',
    },
    doc: 'The after_tool_call view of a call: identity, arguments and the result.',
  },
  {
    name: 'RuntimeHookContext',
    properties: { ...ACTION_CONTEXT_PROPERTIES, terminal_event: 'Event' },
    doc: 'The after_session_* view: the session and its terminal event.',
  },
];

/** ToolResult fields, as 0.3.0 (cayu/core/tools.py:255) and 0.15.0 (cayu/tools/base.py:563) declare them. */
export const CAYU_TOOL_RESULT_FIELDS: Readonly<Record<string, string>> = {
  content: 'str = ""',
  structured: 'Mapping[str, Any] | None = None',
  artifacts: 'Sequence[Mapping[str, Any]] = []',
  is_error: 'bool = False',
};

/** Names the Cayu namespaces export that hooks use. */
export const CAYU_EXPORTS: readonly string[] = [
  'RuntimeHook',
  'RuntimeHookPhase',
  'ToolResult',
  ...CAYU_CONTEXTS.map((c) => c.name),
  ...CAYU_DECISIONS.map((d) => d.name),
];

export const CAYU_BASE_CLASS = 'RuntimeHook';

const phasesById = new Map(CAYU_PHASES.map((p) => [p.id, p]));
export function findCayuPhase(id: string): CayuPhase | undefined {
  return phasesById.get(id as CayuPhaseId);
}
export function findCayuDecision(name: string): CayuDecision | undefined {
  return CAYU_DECISIONS.find((d) => d.name === name);
}
export function findCayuContext(name: string): CayuContextType | undefined {
  return CAYU_CONTEXTS.find((c) => c.name === name);
}

/** What each context property holds, for hovers and completion details. */
export const CAYU_CONTEXT_PROPERTY_DOCS: Readonly<Record<string, string>> = {
  hook_name: "The hook's name in events: the class's `name` (default: the class name).",
  phase: 'The phase this call runs in (`RuntimeHookPhase`).',
  session: 'The session the tool call or terminal event belongs to.',
  execution_profile: 'The execution profile the session runs under, if any.',
  actions: 'The actions this hook recorded so far (context method calls).',
  tool_name: 'The name of the tool being called.',
  tool_call_id: 'The id of this tool call, as the model gave it.',
  arguments:
    'The arguments the tool is called with: a read-only copy. Mutating it is a no-op; return `proceed_modified` with `modified_arguments` to change them.',
  task_id: 'The task the call runs in, if any.',
  tool_event: 'The event that recorded the tool call.',
  result:
    'The tool result (`ToolResult`: `content`, `structured`, `artifacts`, `is_error`); frozen. Return `modify` with `modified_result` to replace it.',
  terminal_event: 'The event that ended the session (completed, failed or interrupted).',
};

/** A property of `RuntimeHook` a subclass may override (besides the phase methods). */
export interface CayuHookProperty {
  name: string;
  type: string;
  /** The first release line that reads it. */
  since: string;
  doc: string;
}

/**
 * Read from cayu 0.3.0 `runtime/hooks.py:423-432`; the runtime reads both once, when the hook is
 * registered (`runtime/app.py:6149-6157`: `RegisteredRuntimeHook(name=…, execution_profile_identity=…)`).
 */
export const CAYU_HOOK_PROPERTIES: readonly CayuHookProperty[] = [
  {
    name: 'execution_profile_identity',
    type: 'ExecutionProfileBehaviorIdentity | None',
    since: 'cayu 0.3',
    doc: "A stable declaration of the hook's behaviour for execution profiles (`ExecutionProfileBehaviorIdentity(name=…, behavior_version=…, implementation_version=…)`: fingerprint input, never persisted in runtime evidence), or `None` (the default) when the hook is not portable. Read once, when the hook is registered (a copy, secret-free; a secret in it is refused); execution-profile admission counts the hooks that declare one. Override it as a `@property`.",
  },
  {
    name: 'name',
    type: 'str',
    since: 'cayu 0.3',
    doc: "The hook's name in the runtime's events (`hook.started`, `hook.completed`, `hook.failed`: `hook_name`): the class name by default. Read once, when the hook is registered; must be a clean, non-blank string. Override it as a `@property` or a class attribute.",
  },
];

export function findCayuHookProperty(name: string): CayuHookProperty | undefined {
  return CAYU_HOOK_PROPERTIES.find((p) => p.name === name);
}

/**
 * The custom event types a hook may emit (`context.emit_custom_event(event_type, …)`), read from
 * `validate_public_custom_event_type`: cayu 0.15 `events.py:22` (the pattern), `:71-76` (type
 * and pattern), `:80-86` (the reserved prefix); the same in cayu 0.3 `core/events.py:16,41-47`.
 * A type outside it raises ValueError inside the hook.
 */
export const CAYU_CUSTOM_EVENT_TYPE = {
  pattern: /^custom\.[A-Za-z0-9_-]+(?:\.[A-Za-z0-9_-]+)*$/,
  patternText: 'custom.<segment>[.<segment>…], each segment [A-Za-z0-9_-]+',
  reservedPrefix: 'custom.cayu.',
  source: 'cayu 0.15 events.py:22,71-86 (0.3: core/events.py:16,41-47)',
} as const;

/**
 * What registration requires of a hook's `name`: `RegisteredRuntimeHook.__post_init__` calls
 * `require_durable_clean_nonblank` (cayu 0.15 `runtime/_runtime_records.py:155-162`,
 * `_validation.py:604-616,645-648`; 0.3 `runtime/_runtime_records.py:96-101`): exactly a `str`,
 * not blank, no surrounding whitespace, no NUL. Else registration raises and the app is not built.
 */
export const CAYU_HOOK_NAME_RULE = {
  source:
    'cayu 0.15 runtime/_runtime_records.py:155-162, _validation.py:604-616 (0.3: runtime/_runtime_records.py:96-101)',
} as const;

/**
 * The phases whose return value the runtime checks: anything but the phase's decision or None
 * raises TypeError (cayu 0.15 `runtime/_tool_invocation/hooks.py:79-80,120-121`), recorded as a
 * failed hook (fail-open).
 */
export const CAYU_DECISION_PHASES: Readonly<Record<string, string>> = {
  before_tool_call: 'BeforeToolCallDecision',
  after_tool_call: 'AfterToolCallDecision',
};
