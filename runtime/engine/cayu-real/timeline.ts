// The runtime's rows (session-record.ts) → the SimulationResult the timeline, the run panel, the
// CLI and the expectations read. Outcomes are the runtime's: hook.completed is `returned`;
// hook.failed is `crashed` when the hook raised, `timed-out` when Hooksmith's safety stop ended
// it, else `invalid-return` (the runtime refused what it returned). Effects say what the runtime did.
import type { SimulationResult, TimelineEvent, ToolRun, TranscriptEntry, TurnSummary } from '../api';
import { hookError } from '../host-adapter';
import { stringifyJson } from '../../json/lossless-json';
import type { HookRow, SessionRecord, ToolRow } from './session-record';

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

function toolLine(name: string, args: unknown, row: ToolRow, saved: boolean): string {
  const how = row.event === 'tool.call.completed' ? '' : `${row.event.replace('tool.call.', '')}: `;
  const kept = saved ? '' : ' (not saved in the session transcript)';
  return `${name}(${text(args)}) → ${how}${row.result.is_error ? 'error: ' : ''}${row.result.content ?? ''}${kept}`;
}

/** The record of a whole scenario, with the tool names each call was made with (in call order). */
export function simulationFromRecord(
  rec: SessionRecord,
  calls: { id?: string; tool_name: string; tool_args: unknown }[][],
  users: string[],
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
    say({ role: 'user', text: users[i] ?? '' });
    const turnCalls = [...(calls[i] ?? [])];
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
        toolResults.push({
          tool_name: name,
          content: row.result.content ?? '',
          is_error: row.result.is_error === true,
          event: row.event,
          ...turn,
        });
        const kept = !rec.saved || !call?.id || savedIds.has(call.id);
        say({ role: 'tool', text: toolLine(name, call?.tool_args ?? {}, row, kept) });
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
    if (played.endedBy)
      say({
        role: 'engine',
        text: `${played.endedBy} raised by ${played.endedByHook ?? 'a hook'} is not an Exception: the runtime does not catch it and the run ends`,
      });
    if (played.error) {
      internalError = `the Cayu runtime raised ${played.error.type.name}: ${played.error.message}`;
      say({ role: 'engine', text: internalError });
    }
    turns.push({
      turn: i + 1,
      name: `turn ${i + 1}`,
      user: users[i] ?? '',
      status,
      ending: played.endedBy ? `${played.endedBy} ended the run` : `session ${status}`,
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
    ...(rec.endedBy ? { endedBy: rec.endedBy } : {}),
    ...(internalError ? { internalError } : {}),
    playedBy: `cayu ${rec.cayu} runtime`,
  };
}
