// The fuzzer's payloads come from the catalogue's zod schemas: every one must pass the engine's
// own validation (else `hooksmith fuzz` would test the validator, not the hook), and they must
// reach the edges the issue names: empty, blank, huge and non-ASCII strings, JSON-text tool values.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { CAYU_PHASE_IDS, PAYLOAD_TYPE_NAMES } from '../../runtime/catalogue';
import { validateCayuContext } from '../../runtime/engine/cayu-context';
import { validatePayload } from '../../runtime/engine/payload-input';
import { containsBigInt, stringifyJson } from '../../runtime/json/lossless-json';
import { cayuContextArbitrary, payloadArbitrary } from '../../runtime/testing/fuzz-arbitraries';

test('generated payloads of every Mantle payload type and Cayu context are valid', () => {
  for (const t of PAYLOAD_TYPE_NAMES)
    for (const p of fc.sample(payloadArbitrary(t), { numRuns: 150, seed: 3 })) {
      const r = validatePayload(t, p);
      assert.ok(r.ok, `${t}: ${stringifyJson(r)}`);
    }
  for (const phase of CAYU_PHASE_IDS)
    for (const p of fc.sample(cayuContextArbitrary(phase), { numRuns: 150, seed: 3 })) {
      const r = validateCayuContext(phase, p);
      assert.ok(r.ok, `${phase}: ${stringifyJson(r)}`);
    }
});

test('int fields and JSON values reach integers beyond 2^53, within signed 64-bit', () => {
  const iterations = fc
    .sample(payloadArbitrary('ModelRequestPayload'), { numRuns: 200, seed: 7 })
    .map((p) => p.iteration)
    .filter((v) => typeof v === 'bigint');
  assert.ok(iterations.length > 10, `bigint iterations: ${iterations.length}`);
  assert.ok(iterations.every((v) => v >= 0n && v < 2n ** 63n));
  const calls = fc.sample(payloadArbitrary('ToolCallPayload'), { numRuns: 200, seed: 7 });
  assert.ok(calls.filter((p) => containsBigInt(p.arguments)).length > 10);
});

test('strings reach empty, blank, huge and non-ASCII; a tool value is mostly JSON text', () => {
  const texts = fc
    .sample(payloadArbitrary('ModelResponsePayload'), { numRuns: 400, seed: 5 })
    .map((p) => p.text);
  const strings = texts.filter((t): t is string => typeof t === 'string');
  assert.ok(strings.includes(''), 'empty');
  assert.ok(
    strings.some((s) => s.length > 0 && s.trim() === ''),
    'blank',
  );
  assert.ok(
    strings.some((s) => s.length > 1000),
    'huge',
  );
  assert.ok(
    strings.some((s) => [...s].some((ch) => ch.codePointAt(0)! > 127)),
    'non-ASCII',
  );
  assert.ok(texts.includes(null), 'null where the field is Optional');
  const values = fc
    .sample(payloadArbitrary('ToolResultPayload'), { numRuns: 200, seed: 5 })
    .map((p) => p.value);
  const parses = values.filter((v) => {
    try {
      JSON.parse(String(v));
      return true;
    } catch {
      return false;
    }
  });
  assert.ok(parses.length > values.length / 2, `${parses.length} of ${values.length} JSON text`);
});
