// Text a person reads at a glance: `hooksmith run` and `hooksmith simulate` output.
import * as path from 'node:path';
import { decoratorName, findPoint } from '../catalogue';
import type { RunResult, SimulationResult, TimelineEvent } from '../engine/api';
import { jsonEqual } from '../json/json-equal';
import { stringifyJson } from '../json/lossless-json';
import { clip } from '../testing/match';

function ms(n: number | undefined): string {
  if (n === undefined) return '';
  return n < 10 ? n.toFixed(1) : String(Math.round(n));
}

function hookKind(point: string, lane: string): string {
  return findPoint(point) && lane !== 'phase'
    ? decoratorName(findPoint(point)!.id, lane === 'modify' ? 'modify' : 'observe')
    : point;
}

function changedFields(before: unknown, after: unknown): string[] {
  if (!before || !after || typeof before !== 'object' || typeof after !== 'object') return [];
  const b = before as Record<string, unknown>;
  const a = after as Record<string, unknown>;
  return Object.keys(a)
    .filter((k) => !jsonEqual(a[k], b[k]))
    .map(
      (k) =>
        `${k}: ${clip(stringifyJson(b[k]) ?? 'undefined', 70)} → ${clip(stringifyJson(a[k]) ?? 'undefined', 70)}`,
    );
}

export function formatRunText(r: RunResult, cwd = process.cwd()): string {
  const lines: string[] = [];
  const file = path.relative(cwd, r.file) || r.file;
  lines.push(`${hookKind(r.point, r.lane)} ${r.handler} (${file})`);
  if (r.playedBy) lines.push(`played by ${r.playedBy}`);
  // Cayu puts no timeout around a hook: its limit is Hooksmith's safety stop, not a budget.
  const limit =
    r.engine === 'cayu'
      ? `no timeout in the runtime; Hooksmith's safety stop at ${Math.round(r.timeoutMs / 1000)} s`
      : `budget ${r.timeoutMs} ms`;
  lines.push(
    `outcome: ${r.outcome} in ${ms(r.durationMs)} ms (${limit}, ${r.policy})${r.overBudget ? ' OVER BUDGET: it blocked the event loop' : ''}`,
  );
  lines.push(`effect:  ${r.effect}`);
  if (r.signal)
    lines.push(
      `signal:  ${r.signal.type}${r.signal.feedback !== undefined ? ` feedback=${stringifyJson(r.signal.feedback)}` : ''}${r.signal.reason !== undefined ? ` reason=${stringifyJson(r.signal.reason)}` : ''}${r.signal.honoured ? '' : ' (not allowed here: ignored)'}`,
    );
  if (r.error) {
    lines.push(`error:   ${r.error.type}: ${r.error.message}`);
    if (r.error.formatted)
      lines.push(
        ...r.error.formatted
          .trimEnd()
          .split('\n')
          .map((l) => `  ${l}`),
      );
  }
  for (const n of r.notes) lines.push(`note:    ${n}`);
  if (r.outcome === 'returned' && r.lane === 'modify') {
    const changed = changedFields(r.inputPayload, r.payload);
    lines.push(changed.length ? 'changed:' : 'changed: nothing (the payload is returned as it came)');
    for (const c of changed) lines.push(`  ${c}`);
  }
  if (r.engine === 'cayu' && r.outcome === 'returned' && r.payload)
    lines.push(`decision: ${clip(stringifyJson(r.payload), 300)}`);
  if (r.actions?.length) lines.push(`actions: ${clip(stringifyJson(r.actions), 300)}`);
  if (r.output)
    lines.push(
      'output:',
      ...r.output
        .trimEnd()
        .split('\n')
        .map((l) => `  | ${l}`),
    );
  return lines.join('\n') + '\n';
}

function eventLine(e: TimelineEvent): string {
  const outcome = e.hook ? (e.outcome ?? '') : '—';
  const timing = e.hook ? `${ms(e.durationMs)}/${e.timeoutMs} ms` : '';
  const hook = e.hook ?? '(no hook)';
  const wired = e.wired ? '' : ' [not wired]';
  const marks = `${e.overBudget ? ' OVER BUDGET' : ''}${e.offTurnPath ? ' (not on the turn path)' : ''}`;
  return `${String(e.seq).padStart(3)}  ${(e.context ?? '').padEnd(16)} ${(e.point + wired).padEnd(30)} ${e.lane.padEnd(7)} ${clip(hook, 44).padEnd(44)} ${outcome.padEnd(14)} ${timing}${marks}`;
}

export function formatSimulationText(s: SimulationResult): string {
  const lines: string[] = [];
  lines.push(
    `scenario ${s.scenario}: ${s.status}${s.ending ? ` (${s.ending})` : ''}; ${s.turns ? `${s.turns.length} turns, ` : ''}${s.iterations ?? 0} iteration(s); ${ms(s.durationMs)} ms (hooks ${ms(s.hookMs)} ms, scripted latency ${ms(s.scriptedMs)} ms)`,
  );
  if (s.playedBy) lines.push(`Cayu played by ${s.playedBy}`);
  if (s.mantlePlayedBy) lines.push(`Mantle hooks played by ${s.mantlePlayedBy}`);
  lines.push('');
  lines.push(
    `${'#'.padStart(3)}  ${'context'.padEnd(16)} ${'point'.padEnd(30)} ${'lane'.padEnd(7)} ${'hook'.padEnd(44)} ${'outcome'.padEnd(14)} time/budget`,
  );
  const turnLine = (n: number | undefined) => {
    const t = n === undefined ? undefined : s.turns?.[n - 1];
    return t
      ? `── turn ${t.turn}${t.name !== `turn ${t.turn}` ? ` (${t.name})` : ''}: ${t.status} (${t.ending})`
      : '';
  };
  let turn: number | undefined;
  for (const e of s.events) {
    if (e.turn !== turn) lines.push(turnLine((turn = e.turn)));
    lines.push(eventLine(e));
    const interesting = e.hook && e.outcome && e.outcome !== 'returned';
    if (interesting && e.effect) lines.push(`       → ${e.effect}`);
    if (e.error) lines.push(`       ${e.error.type}: ${clip(e.error.message, 120)}`);
    if (e.signal)
      lines.push(`       ${e.signal.type}: ${clip(e.signal.feedback ?? e.signal.reason ?? '', 120)}`);
    if (e.hook && e.outcome === 'returned' && e.lane === 'modify') {
      for (const c of changedFields(e.before, e.after)) lines.push(`       changed ${c}`);
    }
    // The [not wired] mark on the line says it; observers' "not awaited" is the lane's rule.
    for (const n of e.notes.filter((x) => !/not awaited|^not invoked by /.test(x)))
      lines.push(`       note: ${clip(n, 140)}`);
  }
  lines.push('', 'transcript:');
  turn = undefined;
  for (const t of s.transcript) {
    if (t.turn !== turn && (turn = t.turn) !== undefined) lines.push(`  ── turn ${turn}`);
    lines.push(`  ${t.role.padEnd(6)} ${t.role === 'engine' ? '(not shown to the user) ' : ''}${t.text}`);
  }
  return lines.join('\n') + '\n';
}
