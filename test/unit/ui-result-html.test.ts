import assert from 'node:assert/strict';
import * as path from 'node:path';
import { test } from 'node:test';
import type { RunResult } from '../../runtime/engine/api';
import { createHookRunner } from '../../runtime/engine/runner';
import { samplePayload } from '../../runtime/engine/samples';
import { renderRunResultHtml } from '../../runtime/ui/result-html';

const SEC = { nonce: 'abc123', cspSource: 'vscode-webview://x' };

const CRASH: RunResult = {
  engine: 'mantle',
  point: 'tool_result',
  lane: 'modify',
  handler: 'redact',
  file: '/agent/hooks.py',
  outcome: 'crashed',
  payload: { value: '<b>v</b>', sender_id: 'u1' },
  inputPayload: { value: '<b>v</b>', sender_id: 'u1' },
  signal: null,
  error: {
    type: 'ValueError',
    message: '<script>x</script>',
    formatted: 'Traceback (most recent call last):\n  File "/agent/hooks.py", line 3',
    traceback: [{ file: '/agent/hooks.py', line: 3, function: 'redact', text: 'raise ValueError()' }],
  },
  durationMs: 250,
  timeoutMs: 500,
  policy: 'fail-open',
  effect: 'the engine carries on with the original result',
  notes: [
    "identity field 'sender_id' restored from the input (the hook changed it; identity is engine-owned)",
  ],
  output: 'printed <i>this</i>',
};

test('crash: badge, traceback frames as links, effect, policy, budget bar; all text escaped', () => {
  const html = renderRunResultHtml(CRASH, {
    ...SEC,
    payloadFile: '/agent/.hooksmith/payloads/tool_result.json',
  });
  assert.match(html, /tone-error"><span aria-hidden="true">✕<\/span> Crashed/);
  assert.match(html, /class="frame mono" data-file="\/agent\/hooks.py" data-line="3"/);
  // The user sees nothing from a tool_result hook; the engine's next step is its own line.
  assert.match(html, /What the end user would have seen<\/span><p class="user-nothing">Nothing directly/);
  assert.match(html, /<strong>Next:<\/strong> the engine carries on with the original result/);
  assert.match(html, /Fail-open: a crash or timeout lets the engine carry on/);
  assert.ok(!/fail-open: fail-open/i.test(html));
  // A crash has no result to diff: the panel says what the engine carries on with.
  assert.match(
    html,
    /No diff: the hook crashed\. The engine carries on with <strong>the input payload, unchanged<\/strong>/,
  );
  assert.ok(!html.includes('<table class="diff"'));
  assert.match(html, /role="meter" aria-valuemin="0" aria-valuemax="500" aria-valuenow="250"/);
  assert.match(html, /#run-bar>\.fill\{width:50\.0%\}/);
  assert.match(html, /data-action="rerun"/);
  assert.match(html, /data-action="openPayload"/);
  assert.equal([...html.matchAll(/<script/g)].length, 1);
  assert.ok(!html.includes('<b>') && !html.includes('<i>'));
  assert.ok(!/\sstyle="/.test(html));
});

test('no payload file: no "Open payload" button', () => {
  assert.ok(!renderRunResultHtml(CRASH, SEC).includes('data-action="openPayload"'));
});

test('an integer beyond 2^53 in the payload shows its digits in the diff (no throw, no rounding)', () => {
  const html = renderRunResultHtml(
    {
      ...CRASH,
      point: 'tool_call',
      outcome: 'returned',
      error: null,
      inputPayload: { arguments: { id: 12345678901234567890n }, sender_id: 'u1' },
      payload: { arguments: { id: 12345678901234567891n }, sender_id: 'u1' },
      notes: [],
    },
    SEC,
  );
  assert.match(html, /12345678901234567890/);
  assert.match(html, /12345678901234567891/);
  assert.ok(!html.includes('12345678901234567000') && !html.includes('[object Object]'));
});

test('a fail-closed timeout (payload null) shows no diff against null but what the engine carries on with', () => {
  const html = renderRunResultHtml(
    {
      ...CRASH,
      point: 'tool_call',
      outcome: 'timed-out',
      error: null,
      payload: null,
      notes: [],
      policy: 'fail-closed',
    },
    SEC,
  );
  assert.ok(!html.includes('<table class="diff"') && !html.includes('→ null') && !/\d changed/.test(html));
  assert.match(
    html,
    /No diff: the hook timed out\. The engine carries on with <strong>nothing: the engine stops here/,
  );
  // The user hears the point's fallback response; the badge's clock is an SVG, not an emoji.
  assert.match(html, /The fallback response: <code>utter_tool_call_hook_error<\/code>/);
  assert.match(html, /<svg class="icon"[^>]*>.*<\/svg><\/span> Timed out/);
});

test('outgoing_text: the user-visible text itself (rewritten, leading spaces kept), not a description', () => {
  const base = { ...CRASH, point: 'outgoing_text', error: null, notes: [], policy: 'fail-open' as const };
  const html = renderRunResultHtml(
    {
      ...base,
      outcome: 'returned',
      inputPayload: { text: 'hi' },
      payload: { text: '  HI THERE' },
      effect: 'this text is stored and sent to the user',
    },
    SEC,
  );
  assert.match(html, /<blockquote class="user-text"> {2}HI THERE<\/blockquote>/);
  assert.match(html, /<strong>Next:<\/strong> this text is stored and sent to the user/);
  // Leading whitespace survives in the diff cells.
  assert.match(html, /table\.diff td code\{white-space:pre-wrap\}/);
  const rejected = renderRunResultHtml(
    {
      ...base,
      outcome: 'hook-rejection',
      payload: null,
      inputPayload: { text: 'hi' },
      signal: { type: 'HookRejection', reason: 'rude', honoured: true },
    },
    SEC,
  );
  assert.match(rejected, /The fallback response: <code>the outgoing-text fallback<\/code>/);
});

test('a real run (python3): modify hook changing the payload shows the changed field', async () => {
  const runner = createHookRunner();
  try {
    const sample = samplePayload('tool_result');
    assert.ok(sample.ok);
    const payload = { ...sample.payload, value: JSON.stringify({ email: 'ada@example.com' }) };
    const result = await runner.run({
      file: path.join(__dirname, '..', '..', 'examples', 'clean-agent', 'hooks', 'tool_hooks.py'),
      handler: 'redact_pii',
      payload,
    });
    assert.equal(result.outcome, 'returned');
    const html = renderRunResultHtml(result, SEC);
    assert.match(
      html,
      /<tr class="d-changed"><td class="k mono">value⟨json⟩\.email<\/td><td><code>&#34;ada@example.com&#34;<\/code>/,
    );
    assert.match(html, /1 changed/);
  } finally {
    await runner.dispose();
  }
});
