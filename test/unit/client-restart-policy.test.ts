// client/restart-policy.ts: restart a crashed server up to N times within M minutes, then give up.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DEFAULT_RESTART_POLICY, RestartPolicy } from '../../client/restart-policy';

describe('RestartPolicy', () => {
  it('restarts up to maxRestarts crashes inside the window, then gives up', () => {
    const p = new RestartPolicy({ maxRestarts: 3, windowMs: 60_000 });
    assert.deepEqual(p.crashed(0), { action: 'restart', attempt: 1 });
    assert.deepEqual(p.crashed(1_000), { action: 'restart', attempt: 2 });
    assert.deepEqual(p.crashed(2_000), { action: 'restart', attempt: 3 });
    assert.deepEqual(p.crashed(3_000), { action: 'give-up', crashes: 4 });
  });

  it('forgets crashes older than the window', () => {
    const p = new RestartPolicy({ maxRestarts: 2, windowMs: 10_000 });
    p.crashed(0);
    p.crashed(1_000);
    assert.deepEqual(p.crashed(10_500), { action: 'restart', attempt: 2 });
    assert.deepEqual(p.crashed(30_000), { action: 'restart', attempt: 1 });
  });

  it('starts over after reset (a restart by hand)', () => {
    const p = new RestartPolicy({ maxRestarts: 1, windowMs: 60_000 });
    p.crashed(0);
    assert.equal(p.crashed(1).action, 'give-up');
    p.reset();
    assert.equal(p.crashed(2).action, 'restart');
  });

  it('defaults to a bounded number of restarts in a few minutes', () => {
    assert.ok(DEFAULT_RESTART_POLICY.maxRestarts >= 1 && DEFAULT_RESTART_POLICY.maxRestarts <= 10);
    const p = new RestartPolicy();
    const verdicts = Array.from(
      { length: DEFAULT_RESTART_POLICY.maxRestarts + 1 },
      (_, i) => p.crashed(i * 1000).action,
    );
    assert.equal(verdicts.at(-1), 'give-up');
    assert.ok(verdicts.slice(0, -1).every((v) => v === 'restart'));
  });
});
