import { strict as assert } from 'node:assert';
import { test } from 'node:test';
import { parseJson, stringifyJson } from '../../runtime/json/lossless-json';

test('integers beyond 2^53 survive a parse and a stringify digit for digit', () => {
  const text = '{"id":12345678901234567890,"neg":-1152921504606846977,"small":42,"f":1.5}';
  const v = parseJson(text) as Record<string, unknown>;
  assert.equal(v.id, 12345678901234567890n);
  assert.equal(v.neg, -1152921504606846977n);
  assert.equal(v.small, 42);
  assert.equal(typeof v.small, 'number');
  assert.equal(v.f, 1.5);
  assert.equal(stringifyJson(v), text);
});

test('malformed text and duplicate keys are SyntaxErrors', () => {
  assert.throws(() => parseJson('{"a":'), SyntaxError);
  assert.throws(() => parseJson('{"a":1,"a":2}'), SyntaxError);
});

test('a __proto__ key is an own key, not the prototype', () => {
  const v = parseJson('{"__proto__":{"x":1}}') as Record<string, unknown>;
  assert.deepEqual(Object.keys(v), ['__proto__']);
  assert.equal(Object.getPrototypeOf(v), Object.prototype);
});
