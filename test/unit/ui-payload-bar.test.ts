import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { RunResult, SimulationResult } from '../../runtime/engine/api';
import { samplePayload } from '../../runtime/engine/samples';
import {
  coerceField,
  editableFields,
  isCatalogueSample,
  renderPayloadBar,
  type PayloadBar,
} from '../../runtime/ui/payload-bar-html';
import { resultMeta } from '../../runtime/ui/html-kit';
import { renderRunResultHtml } from '../../runtime/ui/result-html';
import { renderTimelineHtml } from '../../runtime/ui/timeline-html';

const SEC = { nonce: 'abc123', cspSource: 'vscode-webview://x' };

const RUN: RunResult = {
  engine: 'mantle',
  point: 'tool_call',
  lane: 'modify',
  handler: 'guard_delete',
  file: '/agent/hooks/tool_hooks.py',
  outcome: 'returned',
  payload: { tool_name: 'place_order', sender_id: 'demo-user' },
  inputPayload: { tool_name: 'place_order', sender_id: 'demo-user' },
  signal: null,
  error: null,
  durationMs: 0.2,
  timeoutMs: 500,
  policy: 'fail-closed',
  effect: 'preflight continues with this call',
  notes: [],
  output: '',
};

const BAR: PayloadBar = {
  file: '/agent/.hooksmith/payloads/tool_call.json',
  shown: '.hooksmith/payloads/tool_call.json',
  saved: [
    { file: '/agent/.hooksmith/payloads/tool_call.json', shown: 'tool_call.json' },
    { file: '/agent/.hooksmith/payloads/tool_call-<x>.json', shown: 'tool_call-<x>.json' },
  ],
  catalogueSample: { point: 'tool_call', justWritten: true },
  fields: [
    { key: 'tool_name', value: 'place_order' },
    { key: 'retries', value: 2 },
    { key: 'dry_run', value: true },
  ],
};

test('editableFields: top-level strings, finite numbers and booleans, in file order', () => {
  assert.deepEqual(editableFields({ a: 'x', b: { c: 1 }, d: 3, e: null, f: false, g: [1] }), [
    { key: 'a', value: 'x' },
    { key: 'd', value: 3 },
    { key: 'f', value: false },
  ]);
  // #31 item 2: a payload file's own keys are not the payload's.
  assert.deepEqual(editableFields({ $schema: 's.json', hook: 'h.py::f', expect: 'x', text: 'hi' }), [
    { key: 'text', value: 'hi' },
  ]);
  assert.deepEqual(editableFields([1, 2]), []);
  assert.deepEqual(editableFields('text'), []);
});

test('coerceField keeps the field type: a number field takes only a finite number', () => {
  assert.equal(coerceField('a', 'b'), 'b');
  assert.equal(coerceField('a', 3), undefined);
  assert.equal(coerceField(1, '2.5'), 2.5);
  assert.equal(coerceField(1, 'two'), undefined);
  assert.equal(coerceField(1, ''), undefined);
  assert.equal(coerceField(true, false), false);
  assert.equal(coerceField(true, 'false'), undefined);
});

test('a number field beyond 2^53: shown with its digits, an edit keeps the digits typed', () => {
  assert.deepEqual(editableFields({ id: 12345678901234567890n }), [
    { key: 'id', value: 12345678901234567890n },
  ]);
  assert.equal(coerceField(1, '12345678901234567891'), 12345678901234567891n);
  assert.equal(coerceField(12345678901234567890n, ' 7 '), 7);
  assert.equal(coerceField(12345678901234567890n, '1e400'), undefined);
  assert.equal(coerceField(1, '0x10'), undefined);
  const html = renderPayloadBar({ ...BAR, fields: [{ key: 'id', value: 12345678901234567890n }] });
  assert.match(
    html,
    /<input type="number" id="field-id" data-key="id" data-kind="number" value="12345678901234567890">/,
  );
});

test('isCatalogueSample: the unedited catalogue sample only', () => {
  const sample = samplePayload('tool_call');
  assert.ok(sample.ok);
  const copy = JSON.parse(JSON.stringify(sample.payload)) as Record<string, unknown>;
  assert.equal(isCatalogueSample('tool_call', copy), true);
  assert.equal(isCatalogueSample('tool_call', { ...copy, tool_name: 'delete_account' }), false);
  assert.equal(isCatalogueSample('no_such_point', copy), false);
});

test('run panel: the catalogue-sample notice, the saved payloads to pick, the fields to edit; escaped', () => {
  const html = renderRunResultHtml(RUN, { ...SEC, payloadFile: BAR.file, payloadBar: BAR });
  assert.match(html, /<strong>Ran with the catalogue's sample payload<\/strong> for <code>tool_call<\/code>/);
  assert.match(html, /just written\) — edit it to match your hook/);
  // The notice comes before the result, so the ✓ badge does not read as a pass on its own.
  assert.ok(html.indexOf('sample-notice" role="note"') < html.indexOf('class="effect"'));
  assert.match(
    html,
    /<select id="payload-pick"[^>]*><option value="\/agent\/.hooksmith\/payloads\/tool_call.json" selected>/,
  );
  assert.match(html, /tool_call-&#60;x&#62;\.json/);
  assert.match(html, /data-action="editPayload"/);
  assert.ok(!html.includes('data-action="openPayload"'), 'Edit payload replaces Open payload');
  assert.match(
    html,
    /<input type="text" id="field-tool_name" data-key="tool_name" data-kind="string" value="place_order">/,
  );
  assert.match(
    html,
    /<input type="number" id="field-retries" data-key="retries" data-kind="number" value="2">/,
  );
  assert.match(
    html,
    /<input type="checkbox" id="field-dry_run" data-key="dry_run" data-kind="boolean" checked>/,
  );
  assert.match(html, /postMessage\(\{ type: 'editField', key: t.dataset.key, value \}\)/);
  assert.equal([...html.matchAll(/<script/g)].length, 1);
});

test('run panel: an edited payload has no notice; one saved payload is named, not a list', () => {
  const bar: PayloadBar = { ...BAR, catalogueSample: undefined, saved: BAR.saved.slice(0, 1) };
  const html = renderRunResultHtml(RUN, { ...SEC, payloadFile: BAR.file, payloadBar: bar });
  assert.ok(!html.includes('sample-notice" role'));
  assert.ok(!html.includes('<select id="payload-pick"'));
  assert.match(html, /<span>Payload <code>.hooksmith\/payloads\/tool_call.json<\/code><\/span>/);
});

const cayu = (action: string, extra: Record<string, unknown> = {}): RunResult => ({
  ...RUN,
  engine: 'cayu',
  point: 'before_tool_call',
  lane: 'phase',
  handler: 'Guard.before_tool_call',
  policy: 'cayu',
  payload: { action, ...extra },
});

test('Cayu decisions are labelled by their action: Blocked, Short-circuited, Modified', () => {
  assert.equal(resultMeta('returned', 'phase', { action: 'block', block_reason: 'no' }).label, 'Blocked');
  assert.equal(resultMeta('returned', 'phase', { action: 'short_circuit' }).label, 'Short-circuited');
  assert.equal(resultMeta('returned', 'phase', { action: 'modify' }).label, 'Modified');
  assert.equal(resultMeta('returned', 'phase', { action: 'proceed_modified' }).label, 'Modified');
  assert.equal(resultMeta('returned', 'phase', { action: 'proceed' }).label, 'Returned');
  // A failure keeps its own label; a Mantle payload with an `action` field is no decision.
  assert.equal(resultMeta('crashed', 'phase', { action: 'block' }).label, 'Crashed');
  assert.equal(resultMeta('returned', 'modify', { action: 'block' }).label, 'Returned');
  assert.equal(resultMeta('returned', 'phase', { action: 'toString' }).label, 'Returned');

  const run = renderRunResultHtml(cayu('block', { block_reason: 'no deletes' }), SEC);
  assert.match(run, /<span class="badge tone-warn"><span aria-hidden="true">⊘<\/span> Blocked<\/span>/);
  const sc = renderRunResultHtml(cayu('short_circuit', { synthetic_result: {} }), SEC);
  assert.match(sc, /<\/span> Short-circuited<\/span>/);

  const sim: SimulationResult = {
    scenario: 's.yaml',
    status: 'completed',
    transcript: [],
    events: [
      {
        seq: 1,
        point: 'before_tool_call',
        lane: 'phase',
        hook: 'h.py::G.before_tool_call',
        outcome: 'returned',
        before: {},
        after: { action: 'block', block_reason: 'x' },
        wired: true,
        notes: [],
      },
      {
        seq: 2,
        point: 'after_tool_call',
        lane: 'phase',
        hook: 'h.py::G.after_tool_call',
        outcome: 'returned',
        before: {},
        after: { action: 'modify', modified_result: {} },
        wired: true,
        notes: [],
      },
    ],
  };
  const tl = renderTimelineHtml(sim, SEC);
  assert.match(tl, /aria-label="step 1, before_tool_call, phase, hook G.before_tool_call, Blocked"/);
  assert.match(tl, /<\/span> Blocked<\/span>/);
  assert.match(tl, /<\/span> Modified<\/span>/);
});
