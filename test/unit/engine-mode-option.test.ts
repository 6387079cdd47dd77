// #43 item 4: who plays Cayu phases travels as an option (HookRunnerOptions.cayuEngine → each
// PlayRequest), not as a module global that the last caller set.
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { runnerHostOptions } from '../../runtime/cli/host-options';
import { CAYU_ENGINE_ENV, cayuEngine, singleCallPlayedBy } from '../../runtime/engine/engine-mode';

function withEnv<T>(value: string | undefined, f: () => T): T {
  const saved = process.env[CAYU_ENGINE_ENV];
  if (value === undefined) delete process.env[CAYU_ENGINE_ENV];
  else process.env[CAYU_ENGINE_ENV] = value;
  try {
    return f();
  } finally {
    if (saved === undefined) delete process.env[CAYU_ENGINE_ENV];
    else process.env[CAYU_ENGINE_ENV] = saved;
  }
}

test('the mode given wins over HOOKSMITH_CAYU_ENGINE, which wins over auto; a word that is no mode is not taken', () => {
  withEnv('emulation', () => {
    assert.equal(cayuEngine('real'), 'real');
    assert.equal(cayuEngine(undefined), 'emulation');
    assert.equal(cayuEngine('sometimes'), 'emulation');
  });
  withEnv(undefined, () => assert.equal(cayuEngine(undefined), 'auto'));
});

test('engine-mode.ts keeps no state: the choice is passed down, never set for the process', () => {
  const source = readFileSync(join(__dirname, '../../runtime/engine/engine-mode.ts'), 'utf8');
  assert.doesNotMatch(source, /^(let|var) /m);
  assert.doesNotMatch(source, /export function configure/);
});

test("the CLI's --cayu-engine reaches the runner's options; a phase call names the mode it was given", () => {
  assert.equal(runnerHostOptions({ cayuEngine: 'emulation' }).cayuEngine(), 'emulation');
  assert.equal(runnerHostOptions({}).cayuEngine(), undefined);
  assert.deepEqual(Object.keys(runnerHostOptions({ memoryLimitMb: 0 })).sort(), [
    'cayuEngine',
    'memoryLimitMb',
  ]);
  assert.match(singleCallPlayedBy(true, 'emulation'), /forced/);
  assert.doesNotMatch(singleCallPlayedBy(true, 'auto'), /forced/);
});
