import assert from 'node:assert/strict';
import * as path from 'node:path';
import { test } from 'node:test';
import type { SimulationResult, TimelineEvent } from '../../runtime/engine/api';
import { createHookRunner } from '../../runtime/engine/runner';
import { renderTimelineHtml } from '../../runtime/ui/timeline-html';

const SEC = { nonce: 'N0nce123', cspSource: 'vscode-webview://x' };
const XSS = '<script>alert("pwned")</script>';

function ev(seq: number, extra: Partial<TimelineEvent>): TimelineEvent {
  return { seq, point: 'tool_result', lane: 'modify', wired: true, notes: [], ...extra };
}

const RESULT: SimulationResult = {
  scenario: '/a/<img src=x onerror=alert(1)>.scenario.yaml',
  status: 'completed',
  iterations: 2,
  durationMs: 12.5,
  ending: 'text answer emitted',
  events: [
    ev(1, {
      point: 'turn_started',
      lane: 'observe',
      hook: 'hooks.py::mark',
      outcome: 'returned',
      durationMs: 0.4,
      timeoutMs: 100,
      context: 'turn',
    }),
    ev(2, {
      point: 'incoming_message',
      lane: 'modify',
      hook: 'hooks.py::spam',
      outcome: 'returned',
      durationMs: 1,
      timeoutMs: 500,
      wired: false,
      context: 'incoming',
    }),
    ev(3, {
      point: 'tool_result',
      hook: 'hooks/tool_hooks.py::redact',
      outcome: 'returned',
      durationMs: 2,
      timeoutMs: 500,
      before: { value: XSS, sender_id: 'u' },
      after: { value: '[redacted]', sender_id: 'u' },
      notes: [`note ${XSS}`],
      output: XSS,
      context: 'iteration 0',
    }),
    ev(4, {
      point: 'model_response',
      hook: 'hooks.py::ground',
      outcome: 'retry-model',
      durationMs: 0.2,
      timeoutMs: 500,
      signal: { type: 'RetryModel', feedback: 'Only grounded claims', honoured: true },
      before: { text: 'x' },
      after: null,
      context: 'iteration 0',
    }),
    ev(5, {
      point: 'tool_call',
      hook: 'hooks.py::boom',
      outcome: 'crashed',
      durationMs: 600,
      timeoutMs: 500,
      error: {
        type: 'KeyError',
        message: "'x'",
        formatted: 'Traceback…',
        traceback: [{ file: '/agent/hooks.py', line: 12, function: 'boom', text: 'd["x"]' }],
      },
      context: 'iteration 1',
    }),
    ev(6, {
      point: 'before_tool_call',
      lane: 'phase',
      hook: 'rt.py::Guard.before_tool_call',
      outcome: 'returned',
      durationMs: 0.1,
      timeoutMs: 5000,
      before: { tool: 'a' },
      after: { decision: 'allow' },
      context: 'iteration 1',
    }),
    ev(7, { point: 'knowledge_query', lane: 'modify', context: 'iteration 1' }),
  ],
  transcript: [
    { role: 'user', text: `hello ${XSS}` },
    { role: 'tool', text: `lookup() → ${XSS}` },
    { role: 'engine', text: 'RetryModel feedback: Only grounded claims' },
    { role: 'bot', text: 'Sorry, something went wrong.', fallback: 'utter_internal_error' },
  ],
};

test('every event gets one row, in order, each controlling its details region', () => {
  const html = renderTimelineHtml(RESULT, SEC);
  const rows = [
    ...html.matchAll(
      /<div class="row[^"]*" role="button" tabindex="(-?\d)" aria-expanded="false" aria-controls="([^"]+)" aria-label="([^"]+)"/g,
    ),
  ];
  assert.equal(rows.length, RESULT.events.length);
  rows.forEach((m, i) => {
    assert.match(m[3]!, new RegExp(`^step ${RESULT.events[i]!.seq}, ${RESULT.events[i]!.point}`));
    assert.ok(html.includes(`id="${m[2]}"`), `details ${m[2]}`);
  });
  let last = -1;
  for (const e of RESULT.events) {
    const at = html.indexOf(`aria-label="step ${e.seq}, `);
    assert.ok(at > last, `step ${e.seq} in order`);
    last = at;
  }
});

test('keyboard: one row in the tab order (roving tabindex), arrows/Home/End/Enter/Space handled', () => {
  const html = renderTimelineHtml(RESULT, SEC);
  assert.equal([...html.matchAll(/tabindex="0"/g)].length, 1);
  assert.equal([...html.matchAll(/tabindex="-1"/g)].length, RESULT.events.length - 1);
  for (const key of ['ArrowDown', 'ArrowUp', 'Home', 'End', 'Enter', "' '"])
    assert.ok(html.includes(`e.key === ${key.startsWith("'") ? key : `'${key}'`}`), key);
  assert.match(html, /<ol class="timeline" aria-labelledby="tl-h">/);
});

test('hostile text is escaped everywhere; the only script is the nonce one; CSP is strict', () => {
  const html = renderTimelineHtml(RESULT, SEC);
  assert.equal([...html.matchAll(/<script/g)].length, 1);
  assert.ok(html.includes(`<script nonce="${SEC.nonce}">`));
  assert.ok(!html.includes('<img'));
  assert.ok(!html.includes('alert("pwned")'));
  assert.match(html, /&#60;script&#62;alert\(&#34;pwned&#34;\)&#60;\/script&#62;/);
  assert.match(
    html.replace(/&#39;/g, "'"),
    new RegExp(
      `default-src 'none'; img-src ${SEC.cspSource} data:; style-src 'nonce-${SEC.nonce}'; script-src 'nonce-${SEC.nonce}'`,
    ),
  );
  // Inline style attributes would be blocked by the CSP: widths go in the nonce'd <style>.
  assert.ok(!/\sstyle="/.test(html));
  assert.ok(!/https?:\/\//.test(html.replace(/http-equiv/g, '')), 'no external resources');
});

test('outcome is text + symbol + colour; unwired and hookless points are labelled', () => {
  const html = renderTimelineHtml(RESULT, SEC);
  assert.match(html, /tone-info"><span aria-hidden="true">↻<\/span> RetryModel/);
  assert.match(html, /tone-error"><span aria-hidden="true">✕<\/span> Crashed/);
  assert.equal(
    [...html.matchAll(/<span class="unwired-label">not invoked by rasa-pro 3\.21<\/span>/g)].length,
    1,
  );
  assert.match(html, /class="row tone-border-muted no-hook"/);
  assert.match(html, /no hook registered/);
  // Duration over budget renders as a full, error-toned meter.
  assert.match(html, /class="bar tone-error" id="bar-4" role="meter"/);
  assert.match(html, /#bar-4>\.fill\{width:100\.0%\}/);
});

test('details: diff, signal feedback, traceback links, Cayu decision; transcript roles', () => {
  const html = renderTimelineHtml(RESULT, SEC);
  assert.match(html, /<tr class="d-changed"><td class="k mono">value<\/td>/);
  assert.match(html, /RetryModel<\/code> — “Only grounded claims”/);
  assert.match(html, /<a href="#" class="frame mono" data-file="\/agent\/hooks.py" data-line="12"/);
  assert.match(html, /<span class="dt">Decision<\/span>/);
  assert.match(
    html,
    /class="msg engine" role="note"><span class="who">engine only · not shown to the user<\/span>/,
  );
  assert.match(
    html,
    /class="msg bot is-fallback"><span class="who">bot<\/span><span class="fallback">fallback <code>utter_internal_error<\/code>/,
  );
  assert.match(html, /class="msg user"/);
});

test('expanded steps start open; others hidden', () => {
  const html = renderTimelineHtml(RESULT, { ...SEC, expanded: [3] });
  assert.match(html, /aria-expanded="true" aria-controls="ev-2-details"/);
  assert.match(html, /id="ev-2-details" role="region" aria-label="Details of step 3">/);
  assert.match(html, /id="ev-0-details" role="region" aria-label="Details of step 1" hidden>/);
});

test('an empty simulation still renders', () => {
  const html = renderTimelineHtml({ scenario: 's.yaml', events: [], transcript: [], status: 'error' }, SEC);
  assert.match(html, /No insertion point fired/);
  assert.match(html, /Nothing was said/);
});

test('a real simulation of examples/clean-agent: every event rendered (real python3)', async () => {
  const runner = createHookRunner();
  try {
    const result = await runner.simulate(
      path.join(__dirname, '..', '..', 'examples', 'clean-agent', 'order-pizza.scenario.yaml'),
    );
    const html = renderTimelineHtml(result, SEC);
    assert.ok(result.events.length > 10);
    assert.equal([...html.matchAll(/role="button" tabindex=/g)].length, result.events.length);
    for (const e of result.events)
      assert.ok(html.includes(`aria-label="step ${e.seq}, ${e.point}, ${e.lane}`), `step ${e.seq}`);
    // rasa-pro 3.21 invokes every point (engine-lines/rasa-pro-3.21.json): nothing is labelled unwired.
    assert.deepEqual(
      result.events.filter((e) => !e.wired),
      [],
    );
    assert.ok(!html.includes('class="unwired-label"'));
    for (const t of result.transcript.filter((x) => x.role === 'bot'))
      assert.ok(html.includes(t.text.replace(/'/g, '&#39;')));
  } finally {
    await runner.dispose();
  }
});

test('durations: sub-0.1 ms, ms and seconds read naturally', async () => {
  const { formatMs } = await import('../../runtime/ui/html-kit');
  assert.equal(formatMs(0), '<0.1 ms');
  assert.equal(formatMs(2.5), '2.5 ms');
  assert.equal(formatMs(4), '4 ms');
  assert.equal(formatMs(250), '250 ms');
  assert.equal(formatMs(5000), '5.0 s');
  assert.equal(formatMs(undefined), '–');
});

test('collapsed rows show a change marker and the tool name; filters, jump to first problem, hook links; a fallback said once', () => {
  const result: SimulationResult = {
    scenario: '/a/x.scenario.yaml',
    status: 'completed',
    agentRoot: '/a',
    events: [
      ev(1, {
        point: 'tool_call',
        hook: 'hooks/tool_hooks.py::guard_orders',
        outcome: 'returned',
        before: { tool_name: 'place_order', arguments: { card_id: ' c ' } },
        after: { tool_name: 'place_order', arguments: { card_id: 'c' } },
      }),
      ev(2, {
        point: 'tool_result',
        hook: 'hooks/tool_hooks.py::redact',
        outcome: 'returned',
        before: { tool_name: 'lookup', value: 'v' },
        after: { tool_name: 'lookup', value: 'v' },
      }),
      ev(3, {
        point: 'model_response',
        hook: 'hooks.py::ground',
        outcome: 'retry-model',
        before: { text: 'x' },
      }),
    ],
    transcript: [
      { role: 'bot', text: 'incoming-message fallback', fallback: 'incoming-message fallback' },
      { role: 'bot', text: 'Sorry, something went wrong.', fallback: 'utter_tool_call_hook_error' },
    ],
  };
  const html = renderTimelineHtml(result, SEC);
  // Row 1: changed, its tool named; row 2: unchanged, no marker.
  assert.match(html, /data-outcome="returned" data-changed="1" data-hook="guard_orders"/);
  assert.match(html, /tool_call <span class="toolname" title="tool">place_order<\/span>/);
  assert.match(html, /<span class="chg"[^>]*>Δ 1 changed<\/span>/);
  assert.match(html, /data-outcome="returned" data-changed="0" data-hook="redact"/);
  assert.match(html, /tool_result <span class="toolname" title="tool">lookup<\/span>/);
  // Hook names open the source (the client resolves file::handler under the agent).
  assert.match(html, /<a href="#" class="hooklink" data-hook="hooks\/tool_hooks\.py::guard_orders"/);
  // Filters and the jump to the first problem.
  assert.match(html, /id="f-problems"/);
  assert.match(html, /id="f-changed"/);
  assert.match(
    html,
    /<select id="f-hook"><option value="">all<\/option><option value="ground">ground<\/option><option value="guard_orders">guard_orders<\/option><option value="redact">redact<\/option><\/select>/,
  );
  assert.match(html, /id="jump-problem"/);
  // "fallback incoming-message fallback incoming-message fallback" no more.
  assert.equal(html.split('incoming-message fallback').length - 1, 1, 'the fallback text once');
  assert.match(html, /<span class="fallback">fallback response<\/span>incoming-message fallback/);
  assert.match(
    html,
    /fallback <code>utter_tool_call_hook_error<\/code><\/span>Sorry, something went wrong\./,
  );
});

test('a timed-out step shows no diff against null', () => {
  const html = renderTimelineHtml(
    {
      scenario: 's.scenario.yaml',
      status: 'error',
      transcript: [],
      events: [
        ev(1, {
          point: 'tool_call',
          hook: 'h.py::slow',
          outcome: 'timed-out',
          before: { tool_name: 't' },
          after: null,
        }),
      ],
    },
    SEC,
  );
  assert.ok(!html.includes('<table class="diff"'));
  assert.match(html, /no diff: the hook timed out; the engine does not carry on with it/);
});

test('a conversation: one collapsible section per turn holding its events; the transcript marks each turn', () => {
  const conv: SimulationResult = {
    scenario: 'c.scenario.yaml',
    status: 'completed',
    events: [
      ev(1, { point: 'turn_started', lane: 'observe', turn: 1 }),
      ev(2, { point: 'turn_finished', lane: 'observe', turn: 1 }),
      ev(3, { point: 'turn_started', lane: 'observe', turn: 2 }),
      ev(4, { point: 'model_request', lane: 'modify', turn: 2, hook: 'hooks.py::<b>x</b>' }),
      ev(5, { point: 'turn_finished', lane: 'observe', turn: 2 }),
    ],
    transcript: [
      { role: 'user', text: 'hi', turn: 1 },
      { role: 'bot', text: 'hello', turn: 1 },
      { role: 'user', text: '<i>bye</i>', turn: 2 },
    ],
    turns: [
      {
        turn: 1,
        name: 'turn 1',
        user: 'hi',
        status: 'completed',
        ending: 'text answer emitted',
        iterations: 1,
      },
      {
        turn: 2,
        name: 'turn 2',
        user: '<i>bye</i>',
        status: 'cancelled',
        ending: 'interrupted',
        iterations: 0,
      },
    ],
  };
  const html = renderTimelineHtml(conv, SEC);
  const sections = [...html.matchAll(/<details class="turn" open data-turn="(\d)">([\s\S]*?)<\/details>/g)];
  assert.deepEqual(
    sections.map((m) => [m[1], (m[2]!.match(/class="row /g) ?? []).length]),
    [
      ['1', 2],
      ['2', 3],
    ],
  );
  assert.match(sections[1]![2]!, /turn 2 · cancelled \(interrupted\)/);
  assert.ok(!html.includes('<i>bye</i>'), 'the user text is escaped');
  assert.match(html, /<h1>Simulated conversation \(2 turns\)/);
  assert.deepEqual(
    [...html.matchAll(/<p class="turn-sep">(turn \d)<\/p>/g)].map((m) => m[1]),
    ['turn 1', 'turn 2'],
  );
  // Row indices stay global: the keyboard script walks every row of the page.
  assert.deepEqual(
    [...html.matchAll(/data-index="(\d)"/g)].map((m) => Number(m[1])),
    [0, 1, 2, 3, 4],
  );
});

test('a clean run: no "Jump to first problem" button, and no "not plain returns" wording', () => {
  const clean: SimulationResult = {
    ...RESULT,
    events: RESULT.events.filter((e) => !e.outcome || e.outcome === 'returned'),
  };
  const html = renderTimelineHtml(clean, SEC);
  assert.doesNotMatch(html, /id="jump-problem"/);
  assert.doesNotMatch(html, /not plain return/);
  assert.match(html, /signalled or failed <b>0<\/b>/);
  const noisy = renderTimelineHtml(RESULT, SEC);
  assert.doesNotMatch(noisy, /not plain return/);
});

test('a run played by a model says so in the header, with who played and what was replayed', () => {
  assert.doesNotMatch(renderTimelineHtml(RESULT, SEC), /played-by/);
  const html = renderTimelineHtml(
    {
      ...RESULT,
      models: {
        agent: { provider: 'openai-compatible', model: 'gpt-<4o>', base_url: 'http://127.0.0.1:9/v1' },
        record: 'none',
        exchanges: [
          { role: 'agent', turn: 1, latencyMs: 12, source: 'replayed' },
          { role: 'agent', turn: 1, latencyMs: 30, source: 'replayed' },
        ],
      },
    },
    SEC,
  );
  assert.match(html, /Played by a model: Hooksmith plays the agent with <b>gpt-&#60;4o&#62;<\/b>/);
  assert.match(
    html,
    /not the agent's own engine configuration\. 2 of 2 model exchanges replayed from the cassette, recording none/,
  );
});
