// simulate's exit code from its result: Hooksmith's own failure mid-turn (status error with
// internalError) is 2, never 0 (#16 item 1: an internal stack overflow exited 0).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { SimulationResult, TimelineEvent } from '../../runtime/engine/api';
import { simulateExitCode } from '../../runtime/cli/simulate';

const ev = (outcome?: TimelineEvent['outcome']): TimelineEvent => ({
  seq: 1,
  point: 'turn_started',
  lane: 'observe',
  wired: true,
  notes: [],
  ...(outcome ? { hook: 'hooks.py::h', outcome } : {}),
});
const result = (events: TimelineEvent[], extra: Partial<SimulationResult> = {}): SimulationResult => ({
  scenario: 's',
  events,
  transcript: [],
  status: 'completed',
  ...extra,
});

test('0 clean, 1 a misbehaving hook, 2 an internal failure even when no hook misbehaved', () => {
  assert.equal(simulateExitCode(result([ev(), ev('returned')])), 0);
  assert.equal(
    simulateExitCode(result([ev('returned')], { status: 'error', ending: 'the provider failed' })),
    0,
  );
  assert.equal(simulateExitCode(result([ev('timed-out')])), 1);
  assert.equal(simulateExitCode(result([ev('crashed')])), 1);
  assert.equal(
    simulateExitCode(
      result([ev('returned')], { status: 'error', internalError: 'Maximum call stack size exceeded' }),
    ),
    2,
  );
});
