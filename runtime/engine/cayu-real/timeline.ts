// The runtime's rows (session-record.ts) → the SimulationResult the timeline, the run panel, the
// CLI and the expectations read. Outcomes are the runtime's: hook.completed is `returned`;
// hook.failed is `crashed` when the hook raised, `timed-out` when Hooksmith's safety stop ended
// it, else `invalid-return` (the runtime refused what it returned). Effects say what the runtime did.
import type { SimulationResult, TimelineEvent, ToolRun, TranscriptEntry, TurnSummary } from '../api';
import { hookError } from '../host-adapter';
import { stringifyJson } from '../../json/lossless-json';
import type { HookRow, SavedResult, SessionRecord, ToolRow } from './session-record';
import { runEndedEnding, runEndedText } from '../cayu-run-ended';

const text = (v: unknown) => stringifyJson(v) ?? String(v);

function outcomeOf(r: HookRow): TimelineEvent['outcome'] {
  if (r.status === 'completed') return 'returned';
  if (r.safetyStop) return 'timed-out';
  return r.raised ? 'crashed' : 'invalid-return';
}

function effectOf(r: HookRow): string {
  if (r.status === 'failed')
    return r.phase === 'before_tool_call'
      ? 'the runtime recorded hook.failed (fail-open): the call goes on unguarded with the current arguments'
      : 'the runtime recorded hook.failed (fail-open): the result or session stays as it was';
  const d = (r.returned ?? null) as { action?: string } | null;
  if (r.phase === 'before_tool_call') return d?.action ? `the runtime applied ${d.action}` : 'proceed';
  if (r.phase === 'after_tool_call') return d?.action ? `the runtime applied ${d.action}` : 'pass_through';
  return 'observed the session end';
}

function hookEvent(r: HookRow, context: string, timeoutMs: number): TimelineEvent {
  const outcome = outcomeOf(r);
  const error = r.raised
    ? hookError(r.raised)
    : r.status === 'failed'
      ? { type: r.errorType ?? 'Error', message: r.errorMessage ?? '', traceback: [], formatted: '' }
      : null;
  return {
    seq: 0,
    point: r.phase,
    lane: 'phase',
    ...(r.label ? { hook: r.label } : {}),
    hookName: r.hookName,
    outcome,
    durationMs: r.durationMs ?? 0,
    timeoutMs,
    before: r.before ?? {},
    after: r.returned ?? null,
    signal: null,
    error,
    effect: effectOf(r),
    wired: true,
    context,
    notes: [
      `${r.scope} scope`,
      ...(r.safetyStop ? ["ended by Hooksmith's safety stop (the Cayu runtime has no timeout)"] : []),
      ...(r.status === 'failed' && !r.raised && r.returnedType
        ? [`the runtime refused the ${r.returnedType} it returned (${r.errorType ?? 'error'})`]
        : []),
    ],
    ...(r.actions?.length ? { actions: r.actions } : {}),
  };
}

function toolLine(name: string, args: unknown, row: ToolRow): string {
  const how = row.event === 'tool.call.completed' ? '' : `${row.event.replace('tool.call.', '')}: `;
  return `${name}(${text(args)}) → ${how}${row.result.is_error ? 'error: ' : ''}${row.result.content ?? ''}`;
}

/**
 * A result the runtime reported but did not save (the session failed: an after-hook's modify
 * conflicted with the terminal event; the run raised): no result is shown, as none was kept.
 */
function unsavedLine(name: string, args: unknown, row: ToolRow): TranscriptEntry {
  return {
    role: 'engine',
    text: `${name}(${text(args)}): no result saved — the runtime reported ${row.event} but the session kept no result for this call`,
  };
}

/**
 * The results a turn's run saved though the stream, which the run's raising ended, never showed
 * them: a CancelledError's "Tool call interrupted before completion." (is_error).
 */
function savedUnshown(
  calls: { id?: string; tool_name: string; tool_args: unknown }[],
  shown: Set<string>,
  saved: SavedResult[],
): TranscriptEntry[] {
  const byId = new Map(saved.map((s) => [s.id, s]));
  return calls.flatMap((c) => {
    const s = c.id && !shown.has(c.id) ? byId.get(c.id) : undefined;
    if (!s) return [];
    const line = `${c.tool_name}(${text(c.tool_args)}) → ${s.is_error ? 'error: ' : ''}${s.content} (saved as the run was cancelled)`;
    return [{ role: 'tool' as const, text: line }];
  });
}

/** The record of a whole scenario, with the tool names each call was made with (in call order). */
export function simulationFromRecord(
  rec: SessionRecord,
  calls: { id?: string; tool_name: string; tool_args: unknown }[][],
  users: string[][],
  source: string,
  agentRoot: string,
  timeoutMs: number,
  conversation: boolean,
): SimulationResult {
  const events: TimelineEvent[] = [];
  const transcript: TranscriptEntry[] = [];
  const toolResults: NonNullable<SimulationResult['toolResults']> = [];
  const turns: TurnSummary[] = [];
  let internalError: string | undefined;
  const savedIds = new Set((rec.saved ?? []).map((s) => s.id));
  rec.turns.forEach((played, i) => {
    const turn = conversation ? { turn: i + 1 } : {};
    const say = (e: TranscriptEntry) => transcript.push({ ...e, ...turn });
    for (const text of users[i] ?? ['']) say({ role: 'user', text });
    const turnCalls = [...(calls[i] ?? [])];
    const shown = new Set<string>();
    let bot = '';
    let status: TurnSummary['status'] = 'error';
    let context = 'turn';
    const flush = () => {
      if (bot) say({ role: 'bot', text: bot });
      bot = '';
    };
    for (const row of played.rows) {
      if (row.kind === 'text') bot += row.text;
      else if (row.kind === 'tool') {
        flush();
        const call = turnCalls.shift();
        const name = call?.tool_name ?? '?';
        if (call?.id) shown.add(call.id);
        const kept = !rec.saved || !call?.id || savedIds.has(call.id);
        if (!kept) {
          say(unsavedLine(name, call?.tool_args ?? {}, row));
          continue;
        }
        toolResults.push({
          tool_name: name,
          content: row.result.content ?? '',
          is_error: row.result.is_error === true,
          event: row.event,
          ...turn,
        });
        say({ role: 'tool', text: toolLine(name, call?.tool_args ?? {}, row) });
      } else if (row.kind === 'hook') {
        const e = hookEvent(row, row.phase.startsWith('after_session') ? 'session' : context, timeoutMs);
        events.push({ ...e, seq: events.length + 1, ...turn });
      } else {
        flush();
        status = row.status;
        context = 'session';
      }
    }
    flush();
    if (played.endedBy && rec.endedBy) {
      for (const e of savedUnshown(calls[i] ?? [], shown, rec.saved ?? [])) say(e);
      say({
        role: 'engine',
        text: runEndedText(played.endedBy, played.endedByHook ?? 'a hook', rec.sessionLeft),
      });
    }
    if (played.error) {
      internalError = `the Cayu runtime raised ${played.error.type.name}: ${played.error.message}`;
      say({ role: 'engine', text: internalError });
    }
    turns.push({
      turn: i + 1,
      name: `turn ${i + 1}`,
      user: (users[i] ?? ['']).join('\n'),
      status,
      ending: played.endedBy ? runEndedEnding(played.endedBy, rec.sessionLeft) : `session ${status}`,
      iterations: played.iterations ?? 0,
    });
  });
  const tools: ToolRun[] = rec.ran.map((r) => ({
    tool_name: r.tool_name,
    arguments: r.arguments,
    is_error: r.is_error === true,
  }));
  const last = turns[turns.length - 1];
  const status = turns.some((t) => t.status === 'error') ? 'error' : (last?.status ?? 'error');
  return {
    scenario: source,
    events,
    transcript,
    tools,
    toolResults,
    savedResults: rec.saved ?? [],
    iterations: turns.reduce((n, t) => n + t.iterations, 0),
    hookMs: Math.round(events.reduce((n, e) => n + (e.durationMs ?? 0), 0) * 10) / 10,
    status: conversation ? status : (last?.status ?? 'error'),
    agentRoot,
    ending: last?.ending ?? 'the runtime played no turn',
    ...(conversation ? { turns } : {}),
    ...(rec.endedBy
      ? { endedBy: rec.endedBy, ...(rec.sessionLeft ? { sessionLeft: rec.sessionLeft } : {}) }
      : {}),
    ...(internalError ? { internalError } : {}),
    playedBy: `cayu ${rec.cayu} runtime`,
  };
}
