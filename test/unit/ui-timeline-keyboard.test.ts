// The timeline's keyboard script, run for real in headless Chromium (skipped when it is not
// installed): roving focus with ↑/↓/Home/End, Enter/Space toggling a row's details.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { test } from 'node:test';
import type { SimulationResult } from '../../runtime/engine/api';
import { renderTimelineHtml } from '../../runtime/ui/timeline-html';

const CHROMIUM = ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome'].find((p) =>
  fs.existsSync(p),
);

const RESULT: SimulationResult = {
  scenario: 's.scenario.yaml',
  status: 'completed',
  transcript: [],
  events: [1, 2, 3].map((seq) => ({
    seq,
    point: 'tool_call',
    lane: 'modify' as const,
    hook: `h.py::f${seq}`,
    outcome: 'returned' as const,
    durationMs: 1,
    timeoutMs: 500,
    wired: true,
    notes: [],
    before: { a: seq },
    after: { a: seq },
  })),
};

// Drives the page like a keyboard user and writes what it saw into the DOM for --dump-dom.
const DRIVER = `
const log = [];
const key = (k) => document.activeElement.dispatchEvent(new KeyboardEvent('keydown', { key: k, bubbles: true }));
const state = () => { const rows = [...document.querySelectorAll('.row')]; return rows.indexOf(document.activeElement) + ':' + rows.map((r) => r.getAttribute('tabindex') + (r.getAttribute('aria-expanded') === 'true' ? 'o' : 'c') + (document.getElementById(r.getAttribute('aria-controls')).hidden ? 'h' : 'v')).join(','); };
document.querySelector('.row').focus(); log.push(state());
key('ArrowDown'); log.push(state());
key('Enter'); log.push(state());
key(' '); log.push(state());
key('End'); log.push(state());
key('ArrowDown'); log.push(state());
key('Home'); log.push(state());
key('ArrowUp'); log.push(state());
const out = document.createElement('pre'); out.id = 'kbd-log'; out.textContent = log.join('|'); document.body.appendChild(out);
`;

/** Renders `result`'s timeline with `driver` appended, runs it in headless Chromium, returns the driver's log. */
function driveInChromium(result: SimulationResult, driver: string): string {
  const nonce = 'drivertest1';
  const html = renderTimelineHtml(result, { nonce, cspSource: "'self'" }).replace(
    '</body>',
    `<script nonce="${nonce}">${driver}</script></body>`,
  );
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hooksmith-timeline-'));
  try {
    const file = path.join(dir, 'timeline.html');
    fs.writeFileSync(file, html);
    const dom = execFileSync(
      CHROMIUM!,
      [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        `--user-data-dir=${path.join(dir, 'profile')}`,
        '--dump-dom',
        `file://${file}`,
      ],
      { encoding: 'utf8', timeout: 60_000, stdio: ['ignore', 'pipe', 'ignore'] },
    );
    const log = /<pre id="kbd-log">([^<]*)<\/pre>/.exec(dom)?.[1];
    assert.ok(log, 'the driver ran');
    return log;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

test(
  'keyboard: roving focus and Enter/Space toggle details, in a real browser',
  { skip: CHROMIUM ? false : 'no chromium' },
  () => {
    const log = driveInChromium(RESULT, DRIVER);
    assert.deepEqual(log.split('|'), [
      '0:0ch,-1ch,-1ch', // first row focused, the only one in the tab order
      '1:-1ch,0ch,-1ch', // ↓ moves focus and the tab stop
      '1:-1ch,0ov,-1ch', // Enter opens the details
      '1:-1ch,0ch,-1ch', // Space closes them
      '2:-1ch,-1ch,0ch', // End
      '2:-1ch,-1ch,0ch', // ↓ on the last row stays
      '0:0ch,-1ch,-1ch', // Home
      '0:0ch,-1ch,-1ch', // ↑ on the first row stays
    ]);
  },
);

const FILTER_RESULT: SimulationResult = {
  scenario: 's.scenario.yaml',
  status: 'completed',
  transcript: [],
  events: [
    {
      seq: 1,
      point: 'tool_call',
      lane: 'modify',
      hook: 'h.py::a',
      outcome: 'returned',
      wired: true,
      notes: [],
      before: { x: 1 },
      after: { x: 2 },
    },
    {
      seq: 2,
      point: 'tool_call',
      lane: 'modify',
      hook: 'h.py::b',
      outcome: 'returned',
      wired: true,
      notes: [],
      before: { x: 1 },
      after: { x: 1 },
    },
    {
      seq: 3,
      point: 'model_response',
      lane: 'modify',
      hook: 'h.py::c',
      outcome: 'retry-model',
      wired: true,
      notes: [],
      before: { text: 'x' },
    },
  ],
};

// Ticks each filter and reads which rows stay visible; then jumps to the first problem.
const FILTER_DRIVER = `
const log = [];
const visible = () => [...document.querySelectorAll('li.event')].filter((li) => !li.classList.contains('filtered')).map((li) => li.dataset.hook).join(',');
const set = (id, v) => { const el = document.getElementById(id); if (el.type === 'checkbox') el.checked = v; else el.value = v; el.dispatchEvent(new Event('change')); };
set('f-problems', true); log.push(visible()); set('f-problems', false);
set('f-changed', true); log.push(visible()); set('f-changed', false);
set('f-hook', 'b'); log.push(visible()); set('f-hook', '');
log.push(visible());
document.getElementById('jump-problem').click();
const rs = [...document.querySelectorAll('.row')];
log.push(rs.indexOf(document.activeElement) + (rs[2].getAttribute('aria-expanded') === 'true' ? 'o' : 'c'));
const out = document.createElement('pre'); out.id = 'kbd-log'; out.textContent = log.join('|'); document.body.appendChild(out);
`;

test(
  'filters (outcome ≠ returned, changed only, one hook) and "Jump to first problem", in a real browser',
  { skip: CHROMIUM ? false : 'no chromium' },
  () => {
    const log = driveInChromium(FILTER_RESULT, FILTER_DRIVER);
    assert.deepEqual(log.split('|'), ['c', 'a', 'b', 'a,b,c', '2o']);
  },
);
