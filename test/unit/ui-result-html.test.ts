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
  assert.match(
    html,
    /What the end user would have seen<\/span>the engine carries on with the original result/,
  );
  assert.match(html, /fail-open: a crash or timeout lets the engine carry on/);
  assert.match(html, /role="meter" aria-valuemin="0" aria-valuemax="500" aria-valuenow="250"/);
  assert.match(html, /#run-bar>\.fill\{width:50\.0%\}/);
  assert.match(html, /data-action="rerun"/);
  assert.match(html, /data-action="openPayload"/);
  assert.match(html, /class="d-restored"/);
  assert.equal([...html.matchAll(/<script/g)].length, 1);
  assert.ok(!html.includes('<b>') && !html.includes('<i>'));
  assert.ok(!/\sstyle="/.test(html));
});

test('no payload file: no "Open payload" button', () => {
  assert.ok(!renderRunResultHtml(CRASH, SEC).includes('data-action="openPayload"'));
});

test('a fail-closed crash (payload null) shows the input, not a diff against null', () => {
  const html = renderRunResultHtml({ ...CRASH, payload: null, notes: [], policy: 'fail-closed' }, SEC);
  assert.match(html, /returned nothing the engine uses/);
  assert.ok(!html.includes('<table class="diff"'));
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
