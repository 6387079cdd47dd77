// The verdict of a repeated case, one rule for `hooksmith test --repeat` and the Testing view's
// Run N times: passed only when every run that ran passed; a run that could not run is an error.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { repeatVerdict, type RepeatedCase } from '../../runtime/testing/repeats';

const c = (passed: number, runs: number, errors = 0): RepeatedCase => ({
  file: 'a.scenario.yaml',
  name: 'a',
  rate: { passed, runs },
  errors,
  expectations: [],
});

test('a repeated case passes only when all its runs passed', () => {
  assert.equal(repeatVerdict(c(5, 5)), 'passed');
  assert.equal(repeatVerdict(c(4, 5)), 'failed');
  assert.equal(repeatVerdict(c(0, 5)), 'failed');
  assert.equal(repeatVerdict(c(3, 5, 1)), 'error');
  assert.equal(repeatVerdict(c(0, 0)), 'skipped');
});
