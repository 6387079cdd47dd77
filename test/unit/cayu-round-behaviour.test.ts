// The emulation's Cayu tool round follows the selected line (emulation/cayu-line-behaviour.ts);
// with none selected it follows cayu 0.3.0, the corpus's baseline recording. The behaviour itself
// is held by the corpus recorded from each runtime (test/runtime/cayu-corpus.test.ts).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CAYU_LINE_IDS, useCayuLine } from '../../runtime/catalogue/cayu-lines';
import { CAYU_ROUND_BEHAVIOUR, cayuRoundBehaviour } from '../../runtime/engine/emulation/cayu-line-behaviour';

test('every Cayu line has its round behaviour, and the selected line decides it', () => {
  assert.deepEqual(Object.keys(CAYU_ROUND_BEHAVIOUR).sort(), [...CAYU_LINE_IDS].sort());
  try {
    useCayuLine(undefined);
    assert.equal(cayuRoundBehaviour(), CAYU_ROUND_BEHAVIOUR['cayu-0.3']);
    useCayuLine('cayu-newer');
    assert.deepEqual(cayuRoundBehaviour(), {
      deferredAfterHooks: true,
      batchAfterArgumentsEmpty: false,
      raisedToolInterrupts: true,
    });
    useCayuLine('cayu-0.3');
    assert.equal(cayuRoundBehaviour().raisedToolInterrupts, false);
  } finally {
    useCayuLine(undefined);
  }
});
