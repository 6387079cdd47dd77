import { strict as assert } from 'node:assert';
import { test } from 'node:test';
import { cloneJson, jsonEqual } from '../../runtime/json/json-equal';
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

test('malformed text is a SyntaxError, on either parser', () => {
  assert.throws(() => parseJson('{"a":'), SyntaxError);
  assert.throws(() => parseJson('{"a":12345678901234567890'), SyntaxError);
  assert.throws(() => parseJson('{"a":12345678901234567890,}'), SyntaxError);
});

test("a key given twice keeps its last value, as Python's json.loads does", () => {
  assert.deepEqual(parseJson('{"a":1,"a":2}'), { a: 2 });
  assert.deepEqual(parseJson('{"a":1,"a":12345678901234567890}'), { a: 12345678901234567890n });
  assert.deepEqual(parseJson('{"a":12345678901234567890,"a":2}'), { a: 2 });
});

test('a 16-digit run that is no unsafe integer stays a number; one inside a string stays text', () => {
  assert.equal(parseJson('9007199254740991'), 9007199254740991);
  assert.equal(parseJson('9007199254740992'), 9007199254740992n);
  assert.equal(parseJson('-9007199254740992'), -9007199254740992n);
  assert.equal(parseJson('0.1234567890123456789'), Number('0.1234567890123456789'));
  assert.equal(parseJson('1e400'), Infinity);
  assert.deepEqual(parseJson('["12345678901234567890", 1]'), ['12345678901234567890', 1]);
  // Fractions of 17 digits beside a big integer, and a big integer before a fraction or an exponent.
  assert.deepEqual(parseJson('{"f":0.14285714285714285,"n":-12345678901234567890}'), {
    f: 0.14285714285714285,
    n: -12345678901234567890n,
  });
  assert.deepEqual(
    parseJson('[12345678901234567890.5, 12345678901234567890e0, 0.12345678901234567890]'),
    ['12345678901234567890.5', '12345678901234567890e0', '0.12345678901234567890'].map(Number),
  );
});

test('stringifyJson writes what JSON.stringify writes, and a bigint as its digits', () => {
  const plain = { a: [1, 'x', null, true, 1.5], b: undefined, c: { d: NaN } };
  assert.equal(stringifyJson(plain), JSON.stringify(plain));
  assert.equal(stringifyJson(plain, 2), JSON.stringify(plain, null, 2));
  assert.equal(
    stringifyJson({ a: [2n ** 64n + 1n], b: undefined }, 2),
    '{\n  "a": [\n    18446744073709551617\n  ]\n}',
  );
  assert.equal(stringifyJson(undefined), undefined);
  assert.equal(stringifyJson(-(2n ** 70n)), '-1180591620717411303424');
});

test('cloneJson keeps big integers and a __proto__ key; jsonEqual compares integers exactly', () => {
  const v = parseJson('{"__proto__":{"id":12345678901234567890},"n":[1152921504606846977]}');
  const c = cloneJson(v) as Record<string, unknown>;
  assert.notEqual(c, v);
  assert.deepEqual(c, v);
  assert.ok(Object.hasOwn(c, '__proto__'));
  assert.ok(jsonEqual(v, c));
  assert.ok(!jsonEqual(12345678901234567890n, 12345678901234567891n));
  assert.ok(!jsonEqual(12345678901234567890n, 12345678901234567000));
  assert.ok(jsonEqual(2n ** 64n, 2 ** 64));
  assert.ok(!jsonEqual(1n, '1'));
  assert.ok(!jsonEqual({}, { constructor: 1 }) && !jsonEqual({ constructor: 1 }, {}));
});

test('a __proto__ key is an own key, not the prototype', () => {
  const v = parseJson('{"__proto__":{"x":1}}') as Record<string, unknown>;
  assert.deepEqual(Object.keys(v), ['__proto__']);
  assert.equal(Object.getPrototypeOf(v), Object.prototype);
});
