// runtime/testing/fuzz-cause.ts: the payload field a crash read, from its traceback lines (#31 item 7).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { HookError } from '../../runtime/engine/api';
import { crashField } from '../../runtime/testing/fuzz-cause';

const crash = (...texts: string[]): HookError => ({
  type: 'AttributeError',
  message: "'NoneType' object has no attribute 'upper'",
  formatted: '',
  traceback: texts.map((text, i) => ({ file: 'h.py', line: i + 1, function: 'f', text })),
});

test('the deepest frame’s payload access names the field; a null or empty one wins', () => {
  const payload = { sender_id: ' ', text: null, tool_calls: [] };
  assert.equal(crashField(crash('return p.model_copy(update={"text": p.text.upper()})'), payload), 'text');
  assert.equal(crashField(crash('x = p.sender_id + p["text"].strip()'), payload), 'text');
  assert.equal(crashField(crash('check(p)', 'return p.sender_id.upper()'), payload), 'sender_id');
});

test('no payload key on the crashing lines, or no error: no field', () => {
  assert.equal(crashField(crash('return text[0].upper()'), { text: '' }), undefined);
  assert.equal(crashField(null, { text: '' }), undefined);
});
