// The catalogue against an engine line read from an installed rasa-pro (scripts/introspect-mantle-line.py
// writes engine-lines/rasa-pro-<x.y>.json): every fact the two state differently, with the engine's
// source file:line. A difference is fixed in the catalogue or kept here with its reason; the test
// (test/unit/mantle-engine-line.test.ts) holds the two lists equal, so a new difference fails it.
import { CONTROL_SIGNALS, DEFAULT_TIMEOUT_MS, HOOK_DECORATORS, MANTLE_POINTS } from './mantle-points';
import { IDENTITY_FIELDS, PAYLOAD_TYPES, type PayloadField } from './mantle-payloads';
import { MANTLE_EXPORTS } from './mantle-exports';

interface Sourced<T> {
  value: T;
  source: string | null;
}

export interface EngineLineData {
  version: string;
  exports: { names: string[]; source: string };
  constants: Record<string, Sourced<unknown>>;
  decorators: { name: string; point: string; lane: string; defaultTimeoutMs: number; source: string }[];
  points: {
    id: string;
    source: string;
    payloadType: string;
    modifyDecorator: string | null;
    failPolicyModify: 'open' | 'closed' | null;
    signals: string[];
    defaultTimeoutMs: { observe: number; modify: number };
    callSites: {
      helper: string;
      readsBack: { field: string; source: string }[] | null;
      calledFrom: string[];
    }[];
    wired: boolean;
  }[];
  payloads: {
    name: string;
    base: string;
    frozen: boolean;
    source: string;
    fields: {
      name: string;
      pythonType: string;
      required: boolean;
      default?: unknown;
      declaredIn: string;
      source: string;
    }[];
  }[];
  signals: { name: string; base: string; params: { name: string; required: boolean }[]; source: string }[];
  runner: Record<string, Sourced<unknown>>;
  discovery: Record<string, Sourced<unknown>>;
}

export interface LineDifference {
  /** e.g. "OutgoingTextPayload.is_voice: field". */
  fact: string;
  ours: string;
  engine: string;
  /** The engine's file:line (relative to site-packages). */
  source: string;
}

export interface KeptDifference extends Omit<LineDifference, 'source'> {
  reason: string;
}

/** Differences kept on purpose (fact → why); every other difference is a bug in the catalogue. */
export const KEPT_DIFFERENCES: readonly KeptDifference[] = [
  {
    fact: 'ToolResultPayload.value: type',
    ours: 'str',
    engine: 'Any',
    reason:
      'the model accepts Any, but the engine sends the tool\'s result text (orchestrator.py:2565 `raw_result or f"{tool}: done"`) and serializes what a hook returns (orchestrator.py:2579): Hooksmith samples and checks it as JSON text (rule tool-result-value-is-text)',
  },
  {
    fact: 'HookRejection: parameters',
    ours: 'reason',
    engine: 'reason, response_message?',
    reason:
      "response_message (a responses.yml name the engine sends instead of the packaged fallback, incoming_message.py:123, outgoing_text.py:63) is accepted by the shim and the real runner, and the simulator's bot line names that response (Hooksmith does not render responses.yml); the hovers still name reason only: follow-up",
  },
  ...(
    ['ToolCallPayload.arguments', 'ToolResultPayload.arguments', 'KnowledgeResultsPayload.passages'] as const
  ).map((fact): KeptDifference => ({
    fact: `${fact}: required`,
    ours: 'false',
    engine: 'true',
    reason:
      "a payload file may leave it out and Hooksmith fills the empty value before the model is built, so the engine's model always receives it, as its call sites always pass it (tool_call.py:67, tool_result.py:66, knowledge_results.py:118)",
  })),
];

/** Our spelling of a Python annotation ("Optional[str]" → "str | None", "dict[str, Any]" → "dict"). */
export function normalisePythonType(t: string): string {
  let s = t.replace(/\s+/g, ' ').trim();
  s = s.replace(/dict\[str, Any\]/g, 'dict');
  const optional = /^Optional\[(.*)\]$/.exec(s);
  if (optional) s = `${optional[1]} | None`;
  return s;
}

function policyOf(p: EngineLineData['points'][number]): string {
  if (!p.modifyDecorator) return 'none';
  return p.failPolicyModify ?? 'closed';
}

function mutabilityIn(
  data: EngineLineData,
  payload: EngineLineData['payloads'][number],
  field: EngineLineData['payloads'][number]['fields'][number],
): { value: string; source: string } {
  if (field.declaredIn === 'HookPayload') {
    const restored = data.runner.identityRestored!;
    return { value: 'identity', source: restored.source ?? field.source };
  }
  const point = data.points.find((p) => p.payloadType === payload.name);
  const reads = point?.callSites.flatMap((s) => s.readsBack ?? []) ?? [];
  const read = reads.find((r) => r.field === field.name);
  return read
    ? { value: 'mutable', source: read.source }
    : { value: 'read-only', source: point?.source ?? field.source };
}

function ourField(name: string, fieldName: string): PayloadField | undefined {
  const type = PAYLOAD_TYPES.find((p) => p.name === name);
  return [...(type?.fields ?? []), ...IDENTITY_FIELDS].find((f) => f.name === fieldName);
}

function ourDefault(f: PayloadField): { required: boolean; value?: unknown } {
  const parsed = f.schema.safeParse(undefined);
  return parsed.success ? { required: false, value: parsed.data } : { required: true };
}

function payloadDifferences(data: EngineLineData, out: LineDifference[]): void {
  for (const model of data.payloads) {
    if (!model.name.endsWith('Payload') || model.name === 'HookPayload') continue;
    const ours = PAYLOAD_TYPES.find((p) => p.name === model.name);
    if (!ours) {
      out.push({
        fact: `${model.name}: payload type`,
        ours: 'absent',
        engine: 'exported',
        source: model.source,
      });
      continue;
    }
    const names = new Set(model.fields.map((f) => f.name));
    for (const f of [...ours.fields, ...IDENTITY_FIELDS])
      if (!names.has(f.name))
        out.push({
          fact: `${model.name}.${f.name}: field`,
          ours: 'present',
          engine: 'absent',
          source: model.source,
        });
    for (const f of model.fields) fieldDifferences(data, model, f, out);
  }
}

type EnginePayload = EngineLineData['payloads'][number];

/** How one field the engine declares differs from ours: absent, type, mutability, required, default. */
function fieldDifferences(
  data: EngineLineData,
  model: EnginePayload,
  f: EnginePayload['fields'][number],
  out: LineDifference[],
): void {
  const mine = ourField(model.name, f.name);
  const at = (what: string) => `${model.name}.${f.name}: ${what}`;
  if (!mine) {
    out.push({ fact: at('field'), ours: 'absent', engine: f.pythonType, source: f.source });
    return;
  }
  const type = normalisePythonType(f.pythonType);
  if (mine.pythonType !== type)
    out.push({ fact: at('type'), ours: mine.pythonType, engine: type, source: f.source });
  const mutability = mutabilityIn(data, model, f);
  if (mine.mutability !== mutability.value)
    out.push({
      fact: at('mutability'),
      ours: mine.mutability,
      engine: mutability.value,
      source: mutability.source,
    });
  const def = ourDefault(mine);
  if (def.required !== f.required)
    out.push({
      fact: at('required'),
      ours: String(def.required),
      engine: String(f.required),
      source: f.source,
    });
  else if (
    !f.required &&
    f.declaredIn !== 'HookPayload' &&
    JSON.stringify(def.value) !== JSON.stringify(f.default)
  )
    out.push({
      fact: at('default'),
      ours: JSON.stringify(def.value),
      engine: JSON.stringify(f.default),
      source: f.source,
    });
}

function pointDifferences(data: EngineLineData, out: LineDifference[]): void {
  for (const p of data.points) {
    const ours = MANTLE_POINTS.find((m) => m.id === p.id);
    if (!ours) {
      out.push({ fact: `${p.id}: point`, ours: 'absent', engine: 'present', source: p.source });
      continue;
    }
    const at = (what: string) => `${p.id}: ${what}`;
    const push = (what: string, mine: string, engine: string, source = p.source) => {
      if (mine !== engine) out.push({ fact: at(what), ours: mine, engine, source });
    };
    push('payload type', ours.payloadType, p.payloadType);
    push('fail policy', ours.hasModifyLane ? (ours.failPolicy ?? 'closed') : 'none', policyOf(p));
    push('signals', [...ours.signals].sort().join(', '), p.signals.join(', '));
    const calledFrom = p.callSites.flatMap((s) => s.calledFrom);
    push('wired', String(ours.wired), String(p.wired), calledFrom[0] ?? p.source);
    push('observe timeout', String(DEFAULT_TIMEOUT_MS.observe), String(p.defaultTimeoutMs.observe));
    if (p.modifyDecorator)
      push('modify timeout', String(DEFAULT_TIMEOUT_MS.modify), String(p.defaultTimeoutMs.modify));
  }
}

function exportDifferences(data: EngineLineData, out: LineDifference[]): void {
  const engine = new Set(data.exports.names);
  const ours = new Set(MANTLE_EXPORTS);
  for (const n of engine)
    if (!ours.has(n))
      out.push({ fact: `export ${n}`, ours: 'absent', engine: 'exported', source: data.exports.source });
  for (const n of ours)
    if (!engine.has(n))
      out.push({ fact: `export ${n}`, ours: 'exported', engine: 'absent', source: data.exports.source });
  for (const d of data.decorators) {
    const mine = HOOK_DECORATORS.find((h) => h.name === d.name);
    if (mine && (mine.point.id !== d.point || mine.lane !== d.lane))
      out.push({
        fact: `${d.name}: point and lane`,
        ours: `${mine.point.id} ${mine.lane}`,
        engine: `${d.point} ${d.lane}`,
        source: d.source,
      });
  }
}

/** The parameters each signal takes, as our shim and hovers know them. */
const OUR_SIGNAL_PARAMS: Record<string, string> = { RetryModel: 'feedback', HookRejection: 'reason' };

function signalDifferences(data: EngineLineData, out: LineDifference[]): void {
  for (const s of data.signals) {
    if (!(CONTROL_SIGNALS as readonly string[]).includes(s.name)) continue;
    const engine = s.params.map((p) => (p.required ? p.name : `${p.name}?`)).join(', ');
    const ours = OUR_SIGNAL_PARAMS[s.name] ?? '';
    if (ours !== engine) out.push({ fact: `${s.name}: parameters`, ours, engine, source: s.source });
  }
}

/** Every fact the catalogue (on the active line) and the engine line state differently. */
export function diffMantleLine(data: EngineLineData): LineDifference[] {
  const out: LineDifference[] = [];
  exportDifferences(data, out);
  pointDifferences(data, out);
  payloadDifferences(data, out);
  signalDifferences(data, out);
  return out;
}
