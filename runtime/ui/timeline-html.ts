// The "Simulate Turn" timeline: every insertion point in order (points without a hook dimmed,
// unwired points labelled), each row keyboard-focusable with expandable details, then the
// transcript the user would have seen. Pure: SimulationResult + nonce + cspSource → HTML.
import type { SimulationResult, TimelineEvent, TranscriptEntry } from '../engine/api';
import {
  badge,
  BASE_CSS,
  cspMeta,
  durationBar,
  escapeHtml,
  formatMs,
  laneBadge,
  LINK_SCRIPT,
  resultMeta,
  prettyJson,
  renderTraceback,
  type WebviewSecurity,
} from './html-kit';
import { diffPayload, diffSummary, renderDiffTable } from './payload-diff';
import { CATALOGUE_RASA_PRO, notInvokedBy } from '../catalogue/wiring';
import { TIMELINE_CSS, TIMELINE_SCRIPT } from './timeline-assets';

/** The label of an event at a point the engine does not invoke: on whose word (runtime/catalogue/wiring.ts). */
export function unwiredLabel(ev: Pick<TimelineEvent, 'wiredBy'>): string {
  return notInvokedBy(ev.wiredBy ?? `rasa-pro ${CATALOGUE_RASA_PRO}`);
}

function basename(p: string): string {
  return p.split(/[\\/]/).pop() ?? p;
}

function hookName(ev: TimelineEvent): string {
  return ev.hook ? (ev.hook.split('::').pop() ?? ev.hook) : '';
}

function rowLabel(ev: TimelineEvent): string {
  const parts = [
    `step ${ev.seq}`,
    ev.point,
    ev.lane,
    ev.hook ? `hook ${hookName(ev)}` : 'no hook registered',
    resultMeta(ev.outcome, ev.lane, ev.after).label,
  ];
  if (ev.durationMs !== undefined) parts.push(`${formatMs(ev.durationMs)} of ${formatMs(ev.timeoutMs)}`);
  if (ev.overBudget) parts.push('over budget: it blocked the event loop');
  if (ev.offTurnPath) parts.push('not on the turn path');
  if (!ev.wired) parts.push(unwiredLabel(ev));
  return parts.join(', ');
}

function renderDetails(ev: TimelineEvent, id: string, open: boolean): string {
  const out: string[] = [];
  if (ev.hook)
    out.push(
      `<p><span class="dt">Hook</span> <a href="#" class="hooklink" data-hook="${escapeHtml(ev.hook)}"><code>${escapeHtml(ev.hook)}</code></a>${ev.context ? ` <span class="note">· ${escapeHtml(ev.context)}</span>` : ''}</p>`,
    );
  if (ev.effect) out.push(`<p><span class="dt">Effect</span> ${escapeHtml(ev.effect)}</p>`);
  if (ev.signal) {
    const text = ev.signal.feedback ?? ev.signal.reason;
    out.push(
      `<p><span class="dt">Signal</span> <code>${escapeHtml(ev.signal.type)}</code>${text ? ` — “${escapeHtml(text)}”` : ''}${ev.signal.honoured ? '' : ' <span class="tone-warn">(not honoured here)</span>'}</p>`,
    );
  }
  if (ev.error) {
    out.push(
      `<p><span class="dt">Error</span> <code>${escapeHtml(ev.error.type)}: ${escapeHtml(ev.error.message)}</code></p>${renderTraceback(ev.error.traceback)}`,
    );
  }
  if (ev.before !== undefined || ev.after !== undefined) {
    if (ev.lane === 'phase') {
      out.push(
        `<div class="cols"><div><span class="dt">Context</span><pre>${escapeHtml(prettyJson(ev.before))}</pre></div><div><span class="dt">Decision</span><pre>${escapeHtml(prettyJson(ev.after))}</pre></div></div>`,
      );
    } else if (
      ev.lane === 'modify' &&
      (ev.outcome === 'crashed' || ev.outcome === 'timed-out' || ev.outcome === 'invalid-return')
    ) {
      // A failed hook has no result to diff (never "→ null"): what the engine carries on with is the effect.
      out.push(
        `<p><span class="dt">Payload</span> no diff: the hook ${ev.outcome === 'timed-out' ? 'timed out' : ev.outcome === 'crashed' ? 'crashed' : 'returned something the engine refuses'}; ${ev.after == null ? 'the engine does not carry on with it' : 'the engine carries on with the input, unchanged'}</p><details><summary>Input payload</summary><pre>${escapeHtml(prettyJson(ev.before))}</pre></details>`,
      );
    } else if ((ev.after === undefined || ev.after === null) && (ev.signal || ev.error)) {
      out.push(
        `<details><summary>Input payload (the hook returned nothing the engine uses)</summary><pre>${escapeHtml(prettyJson(ev.before))}</pre></details>`,
      );
    } else {
      const d = diffPayload(ev.before, ev.after, ev.notes);
      out.push(
        `<p><span class="dt">Payload</span> ${escapeHtml(diffSummary(d))}</p>${renderDiffTable(d, false, `Payload diff of step ${ev.seq}`)}`,
      );
      out.push(
        `<details><summary>Payload before / after</summary><div class="cols"><div><span class="dt">Before</span><pre>${escapeHtml(prettyJson(ev.before))}</pre></div><div><span class="dt">After</span><pre>${escapeHtml(prettyJson(ev.after))}</pre></div></div></details>`,
      );
    }
  }
  if (ev.notes.length)
    out.push(`<ul class="notes">${ev.notes.map((n) => `<li>${escapeHtml(n)}</li>`).join('')}</ul>`);
  if (ev.output) out.push(`<span class="dt">Output</span><pre>${escapeHtml(ev.output)}</pre>`);
  if (ev.actions?.length)
    out.push(`<span class="dt">Context actions</span><pre>${escapeHtml(prettyJson(ev.actions))}</pre>`);
  if (!out.length)
    out.push(`<p class="note">No hook is registered at this point; the engine carries on unchanged.</p>`);
  return `<div class="details" id="${id}" role="region" aria-label="Details of step ${ev.seq}"${open ? '' : ' hidden'}>${out.join('')}</div>`;
}

/** Fields a modify hook changed (0 when it changed nothing or did not return a payload). */
function changedFields(ev: TimelineEvent): number {
  if (ev.lane !== 'modify' || ev.outcome !== 'returned' || ev.before === undefined || ev.after == null)
    return 0;
  const d = diffPayload(ev.before, ev.after, ev.notes);
  return d.changed + d.added + d.removed;
}

/** The tool a tool_call / tool_result row is about (from its payload). */
function toolOf(ev: TimelineEvent): string | undefined {
  const p = (ev.before ?? ev.after) as { tool_name?: unknown } | null | undefined;
  return typeof p?.tool_name === 'string' ? p.tool_name : undefined;
}

/** A hook's name as a link to its definition (the client resolves `file::handler`). */
function hookLink(ev: TimelineEvent): string {
  return `<a href="#" class="hooklink" data-hook="${escapeHtml(ev.hook)}" title="Open ${escapeHtml(ev.hook)}"><code>${escapeHtml(hookName(ev))}</code></a>`;
}

function renderEvent(ev: TimelineEvent, index: number, styles: string[], open: boolean): string {
  const meta = resultMeta(ev.outcome, ev.lane, ev.after);
  const changed = changedFields(ev);
  const tool = toolOf(ev);
  const detailsId = `ev-${index}-details`;
  const classes = ['row', `tone-border-${meta.tone}`, ev.hook ? '' : 'no-hook', ev.wired ? '' : 'unwired']
    .filter(Boolean)
    .join(' ');
  const bar =
    ev.durationMs !== undefined
      ? durationBar(ev.durationMs, ev.timeoutMs, `bar-${index}`, styles)
      : `<span class="bar-text">${ev.timeoutMs ? `budget ${escapeHtml(formatMs(ev.timeoutMs))}` : ''}</span>`;
  return `<li class="event" data-outcome="${escapeHtml(ev.outcome ?? '')}" data-changed="${changed ? 1 : 0}" data-hook="${escapeHtml(ev.hook ? hookName(ev) : '')}">
<div class="${classes}" role="button" tabindex="${index === 0 ? 0 : -1}" aria-expanded="${open}" aria-controls="${detailsId}" aria-label="${escapeHtml(rowLabel(ev))}" data-index="${index}">
<span class="chev" aria-hidden="true">▸</span>
<span class="seq">${escapeHtml(ev.seq)}</span>
<span class="point mono">${escapeHtml(ev.point)}${tool ? ` <span class="toolname" title="tool">${escapeHtml(tool)}</span>` : ''}</span>
<span class="lanec">${laneBadge(ev.lane)}</span>
<span class="hook">${ev.hook ? hookLink(ev) : '<span class="note">no hook</span>'}${changed ? ` <span class="chg" title="the hook changed ${changed} field${changed === 1 ? '' : 's'} of the payload">Δ ${changed} changed</span>` : ''}${ev.wired ? '' : ` <span class="unwired-label">${escapeHtml(unwiredLabel(ev))}</span>`}</span>
<span class="dur">${bar}</span>
<span class="out">${ev.outcome ? badge(meta) : '<span class="note">—</span>'}</span>
</div>
${renderDetails(ev, detailsId, open)}
</li>`;
}

function renderTranscriptEntry(t: TranscriptEntry): string {
  if (t.role === 'engine') {
    return `<div class="msg engine" role="note"><span class="who">engine only · not shown to the user</span>${escapeHtml(t.text)}</div>`;
  }
  if (t.role === 'tool')
    return `<div class="msg tool"><span class="who">tool</span><code>${escapeHtml(t.text)}</code></div>`;
  // The fallback's name is said once: as the label when the text is that name, else beside it.
  const fallback = !t.fallback
    ? ''
    : t.fallback === t.text
      ? `<span class="fallback">fallback response</span>`
      : `<span class="fallback">fallback <code>${escapeHtml(t.fallback)}</code></span>`;
  return `<div class="msg ${t.role}${t.fallback ? ' is-fallback' : ''}"><span class="who">${t.role === 'user' ? 'user' : 'bot'}</span>${fallback}${escapeHtml(t.text)}</div>`;
}

export interface TimelineOptions extends WebviewSecurity {
  /** Shows the "Re-run" button (posts {type:'rerun'}). */
  rerun?: boolean;
  /** Where the cassette cannot answer, a "Re-record" button (posts {type:'rerecord'}). */
  rerecord?: boolean;
  /** Steps (seq) shown expanded from the start. */
  expanded?: readonly number[];
}

/** Rows grouped by what they fired on ("turn", "iteration 0", "set_fields"): a header row when it changes. */
function renderEvents(
  events: readonly (readonly [TimelineEvent, number])[],
  styles: string[],
  expanded: ReadonlySet<number>,
): string {
  const out: string[] = [];
  let group: string | undefined;
  for (const [ev, i] of events) {
    const g = ev.context ?? '';
    if (g !== group) {
      group = g;
      if (g) out.push(`<li class="group" role="presentation">${escapeHtml(g)}</li>`);
    }
    out.push(renderEvent(ev, i, styles, expanded.has(ev.seq)));
  }
  return out.join('');
}

const EMPTY_TIMELINE = '<li class="empty">No insertion point fired.</li>';

/** The timeline: one list; a conversation's, one collapsible section per turn. */
function renderTimeline(result: SimulationResult, styles: string[], expanded: ReadonlySet<number>): string {
  const indexed = result.events.map((e, i) => [e, i] as const);
  if (!result.turns)
    return `<ol class="timeline" aria-labelledby="tl-h">${renderEvents(indexed, styles, expanded) || EMPTY_TIMELINE}</ol>`;
  return result.turns
    .map((t) => {
      const mine = indexed.filter(([e]) => e.turn === t.turn);
      const label = `${t.name} · ${t.status}${t.ending ? ` (${t.ending})` : ''}`;
      return `<details class="turn" open data-turn="${t.turn}"><summary><span class="turn-name">${escapeHtml(label)}</span> <span class="note">“${escapeHtml(t.user)}” · ${mine.length} steps · ${t.iterations} iteration(s)</span></summary>
<ol class="timeline" aria-label="${escapeHtml(t.name)}">${renderEvents(mine, styles, expanded) || EMPTY_TIMELINE}</ol></details>`;
    })
    .join('');
}

/** The whole conversation, with a marker where each turn starts. */
function renderTranscript(result: SimulationResult): string {
  if (!result.transcript.length) return '<p class="empty">Nothing was said.</p>';
  let turn: number | undefined;
  return result.transcript
    .map((t) => {
      const mark = result.turns && t.turn !== turn ? `<p class="turn-sep">turn ${(turn = t.turn)}</p>` : '';
      return mark + renderTranscriptEntry(t);
    })
    .join('');
}

/** Who played the model parts: said plainly, so a recorded run is never taken for the agent's own engine. */
function playedBy(result: SimulationResult): string {
  const m = result.models;
  if (!m) return '';
  const who = (x: { model: string; base_url: string }) =>
    `<b>${escapeHtml(x.model)}</b> <span class="note">(${escapeHtml(x.base_url)})</span>`;
  const replayed = m.exchanges.filter((e) => e.source === 'replayed').length;
  const source = `${replayed} of ${m.exchanges.length} model exchanges replayed from the cassette, recording ${escapeHtml(m.record)}`;
  return `<p class="sub played-by" data-played-by="model">Played by a model: Hooksmith plays the agent with ${m.agent ? who(m.agent) : 'scripted completions'}${m.user ? `, the user with ${who(m.user)}` : ''} — not the agent's own engine configuration. ${source}.</p>`;
}

/**
 * A cassette that cannot answer, first and plainly (a changed prompt is not a network failure):
 * what differs, and the Re-record action where the editor offers it (#45 item 1).
 */
function cassetteAlert(result: SimulationResult, opts: TimelineOptions): string {
  const failure = result.models?.failure;
  if (!failure) return '';
  const button = opts.rerecord
    ? `<div class="toolbar"><button data-action="rerecord" title="Call the model for the requests the cassette cannot answer, and save them">Re-record</button></div>`
    : '';
  return `<div class="refused cassette" role="alert"><p><b>The cassette cannot answer:</b> ${escapeHtml(failure)}</p><p class="note">That request was not sent to the model.</p>${button}</div>`;
}

export function renderTimelineHtml(result: SimulationResult, opts: TimelineOptions): string {
  const styles: string[] = [];
  const timeline = renderTimeline(result, styles, new Set(opts.expanded ?? []));
  const statusMeta =
    result.status === 'completed'
      ? { label: 'Completed', symbol: '✓', tone: 'ok' as const }
      : result.status === 'cancelled'
        ? { label: 'Cancelled', symbol: '■', tone: 'warn' as const }
        : { label: 'Error', symbol: '✕', tone: 'error' as const };
  const hooked = result.events.filter((e) => e.hook).length;
  const problems = result.events.filter((e) => e.outcome && e.outcome !== 'returned').length;
  const hookNames = [...new Set(result.events.filter((e) => e.hook).map(hookName))].sort();
  const stat = (label: string, value: string | undefined): string =>
    value ? `<span>${escapeHtml(label)} <b>${escapeHtml(value)}</b></span>` : '';
  const transcript = renderTranscript(result);
  const n = result.turns?.length ?? 0;
  const what = result.turns ? `Simulated conversation (${n} turn${n === 1 ? '' : 's'})` : 'Simulated turn';
  return `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
${cspMeta(opts)}
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${what} — ${escapeHtml(basename(result.scenario))}</title>
<style nonce="${opts.nonce}">${BASE_CSS}${TIMELINE_CSS}${styles.join('\n')}</style>
</head><body>
<header>
<h1>${what} <span class="note">· ${escapeHtml(basename(result.scenario))}</span> ${badge(statusMeta)}</h1>
<p class="stats">${stat('points', String(result.events.length))}${stat('hooks run', String(hooked))}${stat('signalled or failed', String(problems))}${stat('iterations', result.iterations?.toString())}${stat('wall', result.durationMs !== undefined ? formatMs(result.durationMs) : undefined)}${stat('in hooks', result.hookMs !== undefined ? formatMs(result.hookMs) : undefined)}${stat('scripted', result.scriptedMs !== undefined ? formatMs(result.scriptedMs) : undefined)}${stat('ended', result.ending)}</p>
${result.playedBy ? `<p class="sub played-by">Cayu played by <b>${escapeHtml(result.playedBy)}</b></p>` : ''}${result.mantlePlayedBy ? `<p class="sub played-by" data-played-by="mantle">Mantle hooks played by <b>${escapeHtml(result.mantlePlayedBy)}</b></p>` : ''}
${result.agentRoot ? `<p class="sub">Agent <code>${escapeHtml(result.agentRoot)}</code></p>` : ''}
${playedBy(result)}
${cassetteAlert(result, opts)}
<div class="toolbar">${opts.rerun ? '<button data-action="rerun" title="Simulate this scenario again">▶ Re-run</button><button class="secondary" data-action="openScenario">Open scenario</button>' : ''}${problems ? `<button class="secondary" id="jump-problem" title="Expand the first step whose hook signalled or failed">Jump to first problem</button>` : ''}<button class="secondary" id="expand-all">Expand all</button><button class="secondary" id="collapse-all">Collapse all</button></div>
<div class="filters" role="group" aria-label="Filter the timeline"><span>Show only:</span><label><input type="checkbox" id="f-problems"> outcome other than returned</label><label><input type="checkbox" id="f-changed"> hooks that changed the payload</label><label>hook <select id="f-hook"><option value="">all</option>${hookNames
    .map((n) => `<option value="${escapeHtml(n)}">${escapeHtml(n)}</option>`)
    .join('')}</select></label></div>
</header>
<main>
<h2 id="tl-h">Timeline</h2>
<p class="note sr-only">Use the up and down arrow keys to move between steps; Enter or Space shows a step's details.</p>
${timeline}
<h2 id="tr-h">What the user would have seen</h2>
<section class="transcript" aria-labelledby="tr-h">${transcript}</section>
</main>
<script nonce="${opts.nonce}">${LINK_SCRIPT}${TIMELINE_SCRIPT}</script>
</body></html>`;
}
