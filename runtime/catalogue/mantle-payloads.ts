// Payload types of rasa.mantle.hooks (Pydantic v2 models in the engine): fields, their
// mutability, zod schemas for payload files, and a sample of what the engine really sends.
//
// The schemas are built on first use, and zod itself is loaded then: `hooksmith check` and the
// language server's start never validate a payload file, and need neither zod nor these.
import type { z as Z } from 'zod';

import { loadZod, sharedSchemas, type Shared, type Zod } from './payload-zod';

export type Mutability = 'mutable' | 'read-only' | 'identity';

export interface PayloadField {
  name: string;
  /** Python type as the engine declares it, for hovers and docs. */
  pythonType: string;
  mutability: Mutability;
  doc: string;
  /** Built on first read. */
  readonly schema: Z.ZodType;
}

export interface PayloadType {
  name: PayloadTypeName;
  fields: readonly PayloadField[];
  doc: string;
  /** A valid payload as the engine sends it (identity included). */
  sample: Record<string, unknown>;
}

export const PAYLOAD_TYPE_NAMES = [
  'TurnStartedPayload',
  'TurnFinishedPayload',
  'IncomingMessagePayload',
  'ModelRequestPayload',
  'ModelResponsePayload',
  'ToolCallPayload',
  'ToolResultPayload',
  'KnowledgeQueryPayload',
  'KnowledgeResultsPayload',
  'OutgoingTextPayload',
] as const;
export type PayloadTypeName = (typeof PAYLOAD_TYPE_NAMES)[number];

type MakeSchema = (z: Zod, s: Shared) => Z.ZodType;

function field(
  name: string,
  pythonType: string,
  mutability: Mutability,
  doc: string,
  make: MakeSchema,
): PayloadField {
  let schema: Z.ZodType | undefined;
  return {
    name,
    pythonType,
    mutability,
    doc,
    get schema() {
      if (!schema) {
        const z = loadZod();
        schema = make(z, sharedSchemas(z));
      }
      return schema;
    },
  };
}

/** rasa-pro 3.21's CallInfo when the channel supplies none (rasa/mantle/hooks/payloads.py:10, frozen). */
export const EMPTY_CALL_INFO = { phone_number: null, metadata: {} } as const;

/** "Every payload carries read-only identity fields" (Payload wall); rasa/mantle/hooks/payloads.py:28. */
export const IDENTITY_FIELDS: readonly PayloadField[] = [
  field('sender_id', 'str', 'identity', 'Conversation / user id (engine-owned identity).', (z) =>
    z.string().min(1),
  ),
  field(
    'call',
    'CallInfo',
    'identity',
    'Telephony/session identity: phone_number and metadata, empty unless the channel supplies them (engine-owned identity). A payload file may still write null: it is read as the empty CallInfo.',
    (_, s) => s.callInfo.nullable().default({ ...EMPTY_CALL_INFO, metadata: {} }),
  ),
  field(
    'channel',
    'ChannelInfo',
    'identity',
    'Channel name (may be None) and front-end metadata (engine-owned identity).',
    (_, s) => s.channel.default({ name: 'rest', metadata: {} }),
  ),
];
export const IDENTITY_FIELD_NAMES: readonly string[] = IDENTITY_FIELDS.map((f) => f.name);

const identitySample = {
  sender_id: 'demo-user',
  call: { phone_number: null, metadata: {} },
  channel: { name: 'rest', metadata: {} },
};

export const PAYLOAD_TYPES: readonly PayloadType[] = [
  {
    name: 'TurnStartedPayload',
    doc: 'Sent to on_turn_started when a Mantle turn begins.',
    fields: [
      field('is_voice', 'bool', 'read-only', 'Whether this turn came from a voice channel.', (z) =>
        z.boolean().default(false),
      ),
      field('turn_id', 'str | None', 'read-only', 'Reserved; may be unset today.', (z) =>
        z.string().nullable().default(null),
      ),
    ],
    sample: { is_voice: false, turn_id: null, ...identitySample },
  },
  {
    name: 'TurnFinishedPayload',
    doc: 'Sent to on_turn_finished when a Mantle turn ends, also when it fails.',
    fields: [
      field(
        'status',
        "Literal['completed', 'cancelled', 'error']",
        'read-only',
        'Turn outcome: completed, cancelled (interrupted, e.g. barge-in) or error.',
        (z) => z.enum(['completed', 'cancelled', 'error']),
      ),
      field('turn_id', 'str | None', 'read-only', 'Reserved; may be unset today.', (z) =>
        z.string().nullable().default(null),
      ),
    ],
    sample: { status: 'completed', turn_id: null, ...identitySample },
  },
  {
    name: 'IncomingMessagePayload',
    doc: 'A user text message before the engine handles it (text only).',
    fields: [
      field('text', 'str', 'mutable', 'The user message text.', (z) => z.string()),
      // rasa-pro 3.21 declares it: rasa/mantle/hooks/payloads.py:48-50 (`message_id: Optional[str] = None`).
      field(
        'message_id',
        'str | None',
        'read-only',
        "The channel's id of this message, when it gives one (the engine reads back only text).",
        (z) => z.string().nullable().default(null),
      ),
    ],
    sample: { text: 'I want to order a pizza', message_id: null, ...identitySample },
  },
  {
    name: 'ModelRequestPayload',
    doc: 'The chat request about to be sent to the LLM, after trimming to the token budget.',
    fields: [
      field(
        'messages',
        'list[dict]',
        'mutable',
        'The chat messages about to be sent to the LLM (forwarded as dict copies, not validated).',
        (z, s) => z.array(s.message),
      ),
      field(
        'model_settings',
        'dict',
        'mutable',
        'Allow-listed per-call overrides only (temperature, top_p, max_tokens, presence_penalty, frequency_penalty, stop, seed). Starts empty.',
        (_, s) => s.jsonObject.default({}),
      ),
      field('tool_names', 'list[str]', 'read-only', 'Read-only view of offered tool names.', (z) =>
        z.array(z.string()).default([]),
      ),
      field('iteration', 'int', 'read-only', 'Current loop iteration.', (z) =>
        z.union([z.number().int().nonnegative(), z.bigint().nonnegative()]).default(0),
      ),
    ],
    sample: {
      messages: [
        { role: 'system', content: 'You are a helpful pizza-ordering assistant.' },
        { role: 'user', content: 'I want to order a pizza' },
      ],
      model_settings: {},
      tool_names: ['place_order', 'search_knowledge'],
      iteration: 0,
      ...identitySample,
    },
  },
  {
    name: 'ModelResponsePayload',
    doc: 'What the provider returned for this completion, before any text emit or tool dispatch.',
    fields: [
      field('text', 'str | None', 'mutable', 'Assistant text from this completion (may be None).', (z) =>
        z.string().nullable().default(null),
      ),
      field(
        'tool_calls',
        'list[dict]',
        'mutable',
        'Tool-call dicts with id, tool_name, tool_args and optional type.',
        (z, s) => z.array(s.toolCallDict).default([]),
      ),
      field(
        'latency_ms',
        'float | None',
        'read-only',
        'Provider latency for this completion, when available.',
        (_, s) => s.float.nullable().default(null),
      ),
    ],
    sample: {
      text: 'Sure! Which size would you like?',
      tool_calls: [],
      latency_ms: 412.0,
      ...identitySample,
    },
  },
  {
    name: 'ToolCallPayload',
    doc: 'One tool call of the LLM batch, in preflight (before any tool runs).',
    fields: [
      field('tool_name', 'str', 'mutable', 'Name of the tool about to run.', (z) => z.string()),
      field('arguments', 'dict', 'mutable', 'Tool arguments dict.', (_, s) => s.jsonObject.default({})),
      field(
        'headers',
        'dict[str, str]',
        'read-only',
        'Payload-only: the engine does not read it back or plumb it into dispatch.',
        (z) => z.record(z.string(), z.string()).default({}),
      ),
    ],
    sample: {
      tool_name: 'place_order',
      arguments: { size: 'large', card_id: ' card_123 ' },
      headers: {},
      ...identitySample,
    },
  },
  {
    name: 'ToolResultPayload',
    doc: 'A dispatched tool’s result, before it is persisted on tool_executed and replayed to the model.',
    fields: [
      field('tool_name', 'str', 'read-only', 'Name of the tool that just ran.', (z) => z.string()),
      field(
        'arguments',
        'dict',
        'mutable',
        'Arguments used for this call (may be rewritten for persistence/replay).',
        (_, s) => s.jsonObject.default({}),
      ),
      field(
        'value',
        'str',
        'mutable',
        'Result value persisted and replayed to the model, as serialized JSON text.',
        (z) => z.string(),
      ),
      field('is_error', 'bool', 'mutable', 'Whether the result should be treated as an error.', (z) =>
        z.boolean().default(false),
      ),
    ],
    sample: {
      tool_name: 'lookup_customer',
      arguments: { customer_id: 'c-42', ssn: '123-45-6789' },
      value: JSON.stringify({ name: 'Ada', ssn: '123-45-6789' }),
      is_error: false,
      ...identitySample,
    },
  },
  {
    name: 'KnowledgeQueryPayload',
    doc: 'The search string about to be sent to the references index.',
    fields: [
      field('query', 'str', 'mutable', 'Search string passed to the references index.', (z) => z.string()),
    ],
    sample: { query: 'opening hours', ...identitySample },
  },
  {
    name: 'KnowledgeResultsPayload',
    doc: 'Passages retrieved for a query, before they are serialized back to the model.',
    fields: [
      field('query', 'str', 'read-only', 'The query that was searched.', (z) => z.string()),
      field(
        'passages',
        'list[dict]',
        'mutable',
        'Retrieved chunks as {text, scope, source, score?} dicts.',
        (z, s) => z.array(s.passage).default([]),
      ),
    ],
    sample: {
      query: 'opening hours',
      passages: [
        { text: 'We are open 11:00–23:00 every day.', scope: 'faq', source: 'faq.md', score: 0.83 },
        { text: 'Parking is free after 18:00.', scope: 'faq', source: 'faq.md', score: 0.12 },
      ],
      ...identitySample,
    },
  },
  {
    name: 'OutgoingTextPayload',
    doc: 'Bot text about to be sent to the user (text only).',
    fields: [
      field('text', 'str', 'mutable', 'The bot message text.', (z) => z.string()),
      // rasa-pro 3.21 declares it: rasa/mantle/hooks/payloads.py:88-90 (`is_voice: bool = False`).
      field(
        'is_voice',
        'bool',
        'read-only',
        'Whether this utterance goes to a voice channel (the engine reads back only text).',
        (z) => z.boolean().default(false),
      ),
    ],
    sample: { text: '  Your pizza is on its way!  ', is_voice: false, ...identitySample },
  },
];

const payloadsByName = new Map(PAYLOAD_TYPES.map((p) => [p.name, p]));
const CATALOGUE_NAMES = { list: [...PAYLOAD_TYPE_NAMES], types: PAYLOAD_TYPES.map((p) => p.name) };

/**
 * The payload class names the selected engine line spells differently (api-lines.ts): the names
 * change in place, so every table that holds a payload type follows.
 */
export function spellPayloads(renames: ReadonlyMap<string, string>): void {
  const spell = (name: string) => (renames.get(name) ?? name) as PayloadTypeName;
  CATALOGUE_NAMES.list.forEach((name, i) => ((PAYLOAD_TYPE_NAMES as unknown as string[])[i] = spell(name)));
  payloadsByName.clear();
  objectSchemas.clear();
  PAYLOAD_TYPES.forEach((type, i) => {
    (type as { name: PayloadTypeName }).name = spell(CATALOGUE_NAMES.types[i]!);
    payloadsByName.set(type.name, type);
  });
  // The line's docs still spell the old class names in places: both find the type.
  for (const [from, to] of renames)
    if (payloadsByName.has(to as PayloadTypeName))
      payloadsByName.set(from as PayloadTypeName, payloadsByName.get(to as PayloadTypeName)!);
}

/** The payload class names the selected line renamed, in the catalogue's spelling: still accepted. */
export function oldPayloadNames(): string[] {
  return [...payloadsByName].filter(([name, type]) => name !== type.name).map(([name]) => name);
}

export function getPayloadType(name: PayloadTypeName): PayloadType {
  const p = payloadsByName.get(name);
  if (!p) throw new Error(`unknown payload type ${name}`);
  return p;
}

export function findPayloadType(name: string): PayloadType | undefined {
  return payloadsByName.get(name as PayloadTypeName);
}

/** All fields of a payload type, its own first, identity last. */
export function allFields(type: PayloadType): readonly PayloadField[] {
  return [...type.fields, ...IDENTITY_FIELDS];
}

/** Fields a modify hook may change through model_copy(update=...). */
export function mutableFieldNames(type: PayloadType): string[] {
  return type.fields.filter((f) => f.mutability === 'mutable').map((f) => f.name);
}

/** The zod schema of a payload file for this type (identity included; unknown keys rejected). */
const objectSchemas = new Map<PayloadTypeName, Z.ZodObject>();

/**
 * Built once per type: zod compiles an object schema on its first parse, so a new one per run would compile
 * every time.
 */
export function payloadSchema(type: PayloadType): Z.ZodObject {
  let schema = objectSchemas.get(type.name);
  if (!schema) {
    const shape: Record<string, Z.ZodType> = {};
    for (const f of allFields(type)) shape[f.name] = f.schema;
    objectSchemas.set(type.name, (schema = loadZod().strictObject(shape)));
  }
  return schema;
}
