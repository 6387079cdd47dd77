// A recorded conversation → a multi-turn scenario (`hooksmith scenario from-messages`): user
// messages become turns, assistant messages the mock LLM's completions, tool messages the mock
// tools' results, in order. Two inputs: an OpenAI chat message list (what model_request hooks
// see: role, content, tool_calls, tool_call_id; bare or as {messages}), or the JSON of
// `hooksmith simulate --format json` (its model responses as the LLM gave them, before hooks,
// and its tools' results before hooks: replaying through the same hooks plays the same turns).
// Each turn expects the bot text the recording shows (a snapshot `hooksmith test --update`
// refreshes): a recorded scenario checks something from the start (#31 item 4).

import { QUIET_CALLS } from '../catalogue';
import { unfaithfulJson } from '../json/json-faithful';
import { parseJson, stringifyJson } from '../json/lossless-json';

/** Not a recorded conversation, with what is wrong in words. */
export class RecordingError extends Error {}

const QUIET: ReadonlySet<string> = new Set(QUIET_CALLS);

interface Completion {
  text?: string | null;
  quiet?: string;
  tool_calls?: { id?: string; tool_name: string; tool_args: Record<string, unknown> }[];
}
interface Turn {
  user: string;
  completions: Completion[];
  tools?: Record<string, { value?: unknown; error?: string }>;
  expect?: { transcript: { snapshot: string } };
}
export interface RecordedScenario {
  name: string;
  system_prompt?: string;
  turns: Turn[];
}

/** A completion as written: no `text: null` beside tool calls (the engine reads a missing text as null). */
function completion(text: string | null, calls: NonNullable<Completion['tool_calls']>): Completion {
  if (!calls.length) return { text: text ?? '' };
  return text === null ? { tool_calls: calls } : { text, tool_calls: calls };
}

/** Each turn expects the given bot text (the lines joined by a newline, as `transcript` reads it). */
function expectBotTexts(out: RecordedScenario, texts: readonly string[][]): RecordedScenario {
  out.turns.forEach((t, i) => (t.expect = { transcript: { snapshot: (texts[i] ?? []).join('\n') } }));
  return out;
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** The engine serialises a tool's value to JSON text: the text back to the value where it is JSON
 * that carries faithfully (`1e400` is no value a tool returned as JSON: it stays text). */
function toolValue(text: unknown): unknown {
  if (typeof text !== 'string') return text;
  try {
    const value = parseJson(text);
    return unfaithfulJson(value) === undefined ? value : text;
  } catch {
    return text;
  }
}

function textOf(content: unknown, where: string): string | null {
  if (content === null || content === undefined) return null;
  if (typeof content === 'string') return content;
  // OpenAI content parts: [{type: 'text', text}].
  if (Array.isArray(content))
    return content.map((p) => (isObject(p) && typeof p.text === 'string' ? p.text : '')).join('');
  throw new RecordingError(`${where}: content is neither text nor a list of text parts`);
}

/** An OpenAI tool call ({id, function: {name, arguments}}) or Hooksmith's ({id, tool_name, tool_args}). */
function toolCall(c: unknown, where: string): NonNullable<Completion['tool_calls']>[number] {
  if (!isObject(c)) throw new RecordingError(`${where}: a tool call is not an object`);
  const fn = isObject(c.function) ? c.function : undefined;
  const name = fn?.name ?? c.tool_name ?? c.name;
  if (typeof name !== 'string' || !name) throw new RecordingError(`${where}: a tool call has no name`);
  let args: unknown = fn ? fn.arguments : (c.tool_args ?? c.arguments ?? {});
  if (typeof args === 'string') {
    try {
      args = args.trim() ? parseJson(args) : {};
    } catch {
      throw new RecordingError(`${where}: the arguments of ${name} are not JSON`);
    }
  }
  if (!isObject(args)) throw new RecordingError(`${where}: the arguments of ${name} are not a JSON object`);
  return { ...(typeof c.id === 'string' ? { id: c.id } : {}), tool_name: name, tool_args: args };
}

function fromMessageList(messages: unknown[], name: string): RecordedScenario {
  const out: RecordedScenario = { name, turns: [] };
  const said: string[][] = [];
  const calls = new Map<string, string>();
  messages.forEach((m, i) => {
    const where = `message ${i + 1}`;
    if (!isObject(m) || typeof m.role !== 'string')
      throw new RecordingError(`${where}: not a message with a role`);
    const turn = out.turns[out.turns.length - 1];
    switch (m.role) {
      case 'system':
      case 'developer':
        if (out.system_prompt === undefined && !out.turns.length)
          out.system_prompt = textOf(m.content, where) ?? '';
        return;
      case 'user':
        out.turns.push({ user: textOf(m.content, where) ?? '', completions: [] });
        said.push([]);
        return;
      case 'assistant': {
        if (!turn) throw new RecordingError(`${where}: an assistant message before any user message`);
        const tc = Array.isArray(m.tool_calls) ? m.tool_calls.map((c) => toolCall(c, where)) : [];
        tc.forEach((c, n) => {
          c.id ??= `call_${i}_${n}`;
          calls.set(c.id, c.tool_name);
        });
        const text = textOf(m.content, where);
        turn.completions.push(completion(text, tc));
        if (text) said[said.length - 1]!.push(text);
        return;
      }
      case 'tool': {
        const id = m.tool_call_id;
        const tool = typeof id === 'string' ? calls.get(id) : undefined;
        if (!turn || !tool)
          throw new RecordingError(
            `${where}: a tool message whose tool_call_id (${stringifyJson(id)}) names no earlier assistant tool call`,
          );
        turn.tools = { ...turn.tools, [tool]: { value: toolValue(m.content) } };
        return;
      }
      default:
        throw new RecordingError(`${where}: unknown role '${m.role}' (system, user, assistant, tool)`);
    }
  });
  if (!out.turns.length) throw new RecordingError('the conversation has no user message');
  return expectBotTexts(out, said);
}

/** `hooksmith simulate --format json`: its user lines, raw model responses and raw tool results. */
function fromSimulation(sim: Record<string, unknown>, name: string): RecordedScenario {
  const events = sim.events as Record<string, unknown>[];
  const transcript = Array.isArray(sim.transcript) ? (sim.transcript as Record<string, unknown>[]) : [];
  const users = transcript.filter((t) => t.role === 'user').map((t) => String(t.text ?? ''));
  const out: RecordedScenario = { name, turns: users.map((user) => ({ user, completions: [] })) };
  if (!out.turns.length) throw new RecordingError('the simulation has no user message');
  let prev: Record<string, unknown> | undefined;
  for (const e of events) {
    if (!isObject(e)) continue;
    // The hooks of one firing (observers and the modify hook) are adjacent events with one input.
    const sameFiring =
      prev !== undefined && prev.point === e.point && stringifyJson(prev.before) === stringifyJson(e.before);
    prev = e;
    if (sameFiring) continue;
    const turn = out.turns[(typeof e.turn === 'number' ? e.turn : 1) - 1];
    const before = isObject(e.before) ? e.before : undefined;
    if (!turn || !before) continue;
    if (e.point === 'model_response') {
      const quiet = QUIET.has(String(e.context)) ? { quiet: String(e.context) } : {};
      const tc = Array.isArray(before.tool_calls)
        ? before.tool_calls.map((c) => toolCall(c, `event #${e.seq}`))
        : [];
      const text = typeof before.text === 'string' ? before.text : null;
      turn.completions.push({ ...completion(text, tc), ...quiet });
    } else if (e.point === 'tool_result' && typeof before.tool_name === 'string') {
      const value =
        before.is_error === true ? { error: String(before.value) } : { value: toolValue(before.value) };
      turn.tools = { ...turn.tools, [before.tool_name]: value };
    }
  }
  // What the user saw: the bot lines after the hooks, per turn.
  const bot = transcript.filter((t) => t.role === 'bot');
  const said = out.turns.map((_, i) =>
    bot.filter((t) => (typeof t.turn === 'number' ? t.turn : 1) === i + 1).map((t) => String(t.text ?? '')),
  );
  return expectBotTexts(out, said);
}

/** The recording (parsed JSON) → a scenario object; a RecordingError says what is wrong. */
export function scenarioFromRecording(input: unknown, name = 'recorded conversation'): RecordedScenario {
  if (Array.isArray(input)) return fromMessageList(input, name);
  if (isObject(input) && Array.isArray(input.messages)) return fromMessageList(input.messages, name);
  if (isObject(input) && Array.isArray(input.events) && Array.isArray(input.transcript))
    return fromSimulation(input, name);
  throw new RecordingError(
    'expected a list of chat messages (role, content, tool_calls, tool_call_id), {messages: [...]}, or the JSON of hooksmith simulate --format json',
  );
}

const SCENARIO_SUFFIX = /\.scenario\.(ya?ml|json)$/i;

/**
 * The scenario file a save dialog's answer stands for. VS Code's own dialog appends the filter's
 * extension to a name that does not end with it as it reads extensions (`.yaml`), so the default
 * `chat.scenario.yaml` came back as `chat.scenario.yaml.scenario.yaml` (#31 item 3): a doubled
 * suffix is undone, and a name without `.scenario.yaml` gets it (else no tool reads it as a scenario).
 */
export function scenarioOutputPath(chosen: string): string {
  const doubled = chosen.replace(/(\.scenario\.ya?ml)+(\.scenario\.ya?ml)$/i, '$2');
  if (SCENARIO_SUFFIX.test(doubled)) return doubled;
  return `${doubled.replace(/\.(ya?ml|json)$/i, '')}.scenario.yaml`;
}
