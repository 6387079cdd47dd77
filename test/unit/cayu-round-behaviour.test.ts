// The emulation's Cayu tool round follows the selected line (emulation/cayu-line-behaviour.ts);
// with none selected it follows cayu 0.3.0, the corpus's baseline recording. The behaviour itself
// is held by the corpus recorded from each runtime (test/runtime/cayu-corpus.test.ts).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CAYU_LINE_IDS, useCayuLine } from '../../runtime/catalogue/cayu-lines';
import { CAYU_ROUND_BEHAVIOUR, cayuRoundBehaviour } from '../../runtime/engine/emulation/cayu-line-behaviour';
import { cayuLineOfImports } from '../../runtime/engine/cayu-line-of-module';
import { parseModule } from '../../runtime/analysis';
import { initParser } from '../../runtime/python';

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

test('a line chosen (setting, option, the installed cayu) wins over the one the hooks import', () => {
  try {
    useCayuLine(undefined);
    assert.equal(cayuRoundBehaviour('cayu-newer'), CAYU_ROUND_BEHAVIOUR['cayu-newer']);
    useCayuLine('cayu-0.3');
    assert.equal(cayuRoundBehaviour('cayu-newer'), CAYU_ROUND_BEHAVIOUR['cayu-0.3']);
  } finally {
    useCayuLine(undefined);
  }
});

// The line a module's own imports name (engine/cayu-line-of-module.ts): its first unguarded
// import of the hook API from a module only one line has.
const LINE_OF: [string, string, string | undefined][] = [
  ['0.15 layout', 'from cayu.observability import RuntimeHook\n', 'cayu-newer'],
  ['0.15 submodule', 'from cayu.observability.hooks import BeforeToolCallDecision\n', 'cayu-newer'],
  ['module import', 'import cayu.observability.hooks as h\n', 'cayu-newer'],
  ['0.3 layout', 'from cayu.runtime.hooks import RuntimeHook\n', 'cayu-0.3'],
  ['0.3 re-export from cayu', 'from cayu import RuntimeHook\n', 'cayu-0.3'],
  ['ToolResult only (both lines)', 'from cayu import ToolResult\n', undefined],
  ['not the hook API', 'from cayu import CayuApp\n', undefined],
  ['import cayu', 'import cayu\n', undefined],
  [
    'guarded for both lines',
    'try:\n    from cayu.observability import RuntimeHook\nexcept ImportError:\n    from cayu import RuntimeHook\n',
    undefined,
  ],
  ['inside a function', 'def f():\n    from cayu.observability import RuntimeHook\n', undefined],
  [
    'the first unguarded one decides',
    'from cayu import ToolResult\nfrom cayu.runtime.hooks import RuntimeHook\nfrom cayu.observability import RuntimeHookContext\n',
    'cayu-0.3',
  ],
];

test('the Cayu line a hook module imports the hook API from', async () => {
  await initParser();
  for (const [name, text, want] of LINE_OF)
    assert.equal(cayuLineOfImports(parseModule(text, '/x/hooks.py').imports), want, name);
});
