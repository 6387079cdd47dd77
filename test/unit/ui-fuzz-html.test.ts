import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { FuzzReport } from '../../runtime/testing/fuzz-run';
import { renderFuzzHtml } from '../../runtime/ui/fuzz-html';

const SEC = { nonce: 'n0nce', cspSource: 'vscode-webview://x' };

const REPORT: FuzzReport = {
  target: 'hooks/model_hooks.py::capitalise',
  point: 'model_response modify',
  runs: 150,
  seed: 7,
  counts: {
    returned: 140,
    'retry-model': 0,
    'hook-rejection': 0,
    crashed: 10,
    'timed-out': 0,
    'invalid-return': 0,
    'ignored-signal': 0,
  },
  overBudget: 0,
  failures: 10,
  p50Ms: 0.2,
  p99Ms: 1.1,
  budgetMs: 500,
  perSecond: 900,
  smallest: { payload: { text: '' }, outcome: 'crashed', overBudget: false, error: 'IndexError: <oops>' },
  failing: [
    { index: 3, payload: { text: ' ' }, outcome: 'crashed', overBudget: false, error: 'IndexError: x' },
    { index: 9, payload: { text: '\n' }, outcome: 'crashed', overBudget: false },
  ],
};

test('fuzz panel: verdict, cases by outcome, the shrunk payload with Save, the failing cases; escaped', () => {
  const html = renderFuzzHtml(REPORT, SEC);
  assert.match(
    html,
    /<span class="badge tone-error"><span aria-hidden="true">✕<\/span> 10 of 150 misbehaved<\/span>/,
  );
  assert.match(html, /Crashed<\/span><\/td><td class="n">10<\/td>/);
  assert.match(html, /Returned<\/span><\/td><td class="n">140<\/td>/);
  assert.match(html, /p50 0.2 ms · p99 1.1 ms of 500 ms/);
  assert.match(html, /<h2>Smallest failing payload \(shrunk\)<\/h2>/);
  assert.match(html, /<code>IndexError: &#60;oops&#62;<\/code>/);
  assert.match(html, /data-action="saveFuzzCase"/);
  assert.match(html, /<h2>Failing cases \(first 2 of 10\)<\/h2>/);
  assert.match(html, /<summary>case 3 <span class="badge tone-error">/);
  assert.match(html, /<pre>\{\n {2}&#34;text&#34;: &#34; &#34;\n\}<\/pre>/);
  assert.match(html, /data-action="rerun"/);
  assert.ok(!html.includes('<oops>'));
});

test('fuzz panel: once saved, the case path instead of the button; a clean run says all handled', () => {
  const saved = renderFuzzHtml(REPORT, { ...SEC, savedCase: '.hooksmith/payloads/fuzz-capitalise.json' });
  assert.ok(!saved.includes('data-action="saveFuzzCase"'));
  assert.match(saved, /Saved as the payload case <code>.hooksmith\/payloads\/fuzz-capitalise.json<\/code>/);
  const clean: FuzzReport = {
    ...REPORT,
    failures: 0,
    counts: { ...REPORT.counts, returned: 150, crashed: 0 },
  };
  delete clean.smallest;
  delete clean.failing;
  const html = renderFuzzHtml(clean, SEC);
  assert.match(html, /✓<\/span> all 150 handled/);
  assert.ok(!html.includes('Smallest failing payload') && !html.includes('Failing cases'));
});
