import assert from 'node:assert/strict';
import { test } from 'node:test';
import { applyFix, diagnose, expectAt, py, rangeText } from './helpers';
import { ruleTester } from './rule-tester';

test('unknown-import: a misspelt export is reported on the name; the fix renames the import and its uses', async () => {
  const src = py`
    from rasa.mantle.hooks import (
        TurnStartedPayload,
        on_turn_start,
    )

    @on_turn_start()
    async def mark(payload: TurnStartedPayload) -> None: ...
  `;
  const diags = await diagnose('unknown-import', src);
  expectAt(diags, ['3:5']);
  assert.equal(diags[0].severity, 'error');
  assert.equal(rangeText(src, diags[0]), 'on_turn_start');
  assert.match(
    diags[0].message,
    /`on_turn_start` is not exported by `rasa\.mantle\.hooks`; did you mean `on_turn_started`\? Loading the module raises ImportError/,
  );
  assert.equal(
    applyFix(src, diags[0]),
    src
      .replaceAll('on_turn_start(', 'on_turn_started(')
      .replace('    on_turn_start,', '    on_turn_started,'),
  );
});

test('unknown-import: a modify decorator of an observe-only point says so; aliased imports keep the alias', async () => {
  const src = py`
    from rasa.mantle.hooks import modify_turn_finished as finished, RetryModl

    @finished()
    async def done(p) -> None: ...
  `;
  const diags = await diagnose('unknown-import', src);
  expectAt(diags, ['1:31', '1:65']);
  assert.match(
    diags[0].message,
    /`modify_turn_finished` does not exist: the turn finished point has no modify lane \(it is observe-only\)\. Use `on_turn_finished`/,
  );
  assert.equal(
    applyFix(src, diags[0]),
    src.replace('modify_turn_finished as finished', 'on_turn_finished as finished'),
  );
  assert.match(diags[1].message, /did you mean `RetryModel`\?/);
});

test('unknown-import: a name far from every export gets no fix', async () => {
  const diags = await diagnose('unknown-import', 'from rasa.mantle.hooks import HookRunner\n');
  expectAt(diags, ['1:31']);
  assert.equal(diags[0].fixes, undefined);
});

test('unknown-import: quiet on real exports, wildcard, and other modules', async () => {
  const src = py`
    from rasa.mantle.hooks import HookRejection, RetryModel, on_tool_call, ToolCallPayload
    from rasa.mantle.hooks import *
    from rasa.mantle import hooks
    from mylib import on_turn_start
  `;
  assert.deepEqual(await diagnose('unknown-import', src), []);
});

test('unknown-import: follows the installed rasa.mantle.hooks when the interpreter has it', async () => {
  const src = py`
    from rasa.mantle.hooks import on_turn_started, on_session_closed
  `;
  const installed = {
    names: ['on_turn_started', 'on_session_closed'],
    decorators: ['on_turn_started', 'on_session_closed'],
    payloads: {},
    signals: [],
  };
  const environment = {
    python: 'python3',
    resolves: () => true,
    engine: { rasaPro: '3.23.0', cayu: null, mantle: installed, cayuHooks: null },
  };
  assert.deepEqual(await diagnose('unknown-import', src, { environment }), []);
  // Without it, the bundled catalogue (3.21) does not know the name.
  assert.equal((await diagnose('unknown-import', src)).length, 1);
});

test("unknown-import on the rasa-pro 3.21 line: the newest docs' outgoing names are reported with the name 3.21 ships (#41)", async () => {
  const src = py`
    from rasa.mantle.hooks import OutgoingMessagePayload, modify_outgoing_message, modify_outgoing_text

    @modify_outgoing_message()
    async def tidy(message: OutgoingMessagePayload) -> OutgoingMessagePayload:
        return message
  `;
  const ds = await diagnose('unknown-import', src);
  assert.deepEqual(
    ds.map((d) => rangeText(src, d)),
    ['OutgoingMessagePayload', 'modify_outgoing_message'],
  );
  assert.match(
    ds[0]!.message,
    /is the name on Rasa Mantle's newest docs; rasa-pro 3\.21 .* spells it `OutgoingTextPayload`/,
  );
  const fixed = applyFix(src, ds[1]!);
  assert.ok(fixed.includes('@modify_outgoing_text()'), fixed);
});

// #39 item 5: rasa-pro 3.21.0 exports only the outgoing_text names (engine-lines/rasa-pro-3.21.json);
// on the newest docs line they are deprecated: a warning whose fix migrates the import and its uses.
test('unknown-import: the old outgoing_text names are deprecated on the newest line only, with a migrate fix', async () => {
  const { useMantleLine } = await import('../../../runtime/catalogue');
  const src = py`
    from rasa.mantle.hooks import OutgoingTextPayload, modify_outgoing_text

    @modify_outgoing_text()
    async def shout(payload: OutgoingTextPayload) -> OutgoingTextPayload:
        return payload
  `;
  assert.deepEqual(await diagnose('unknown-import', src), [], 'rasa-pro 3.21: the names');
  useMantleLine('mantle-newest');
  try {
    const diags = await diagnose('unknown-import', src);
    expectAt(diags, ['1:31', '1:52']);
    for (const d of diags) {
      assert.equal(d.severity, 'warning');
      assert.deepEqual(d.tags, ['deprecated']);
    }
    assert.equal(rangeText(src, diags[1]!), 'modify_outgoing_text');
    assert.match(
      diags[1]!.message,
      /deprecated on Rasa Mantle's newest docs: it is renamed `modify_outgoing_message`/,
    );
    const migrated = applyFix(
      applyFix(src, diags[0]!),
      (await diagnose('unknown-import', applyFix(src, diags[0]!)))[0]!,
    );
    assert.equal(
      migrated,
      src
        .replace(/OutgoingTextPayload/g, 'OutgoingMessagePayload')
        .replace(/modify_outgoing_text/g, 'modify_outgoing_message'),
    );
    assert.deepEqual(await diagnose('unknown-import', migrated), []);
  } finally {
    useMantleLine('rasa-pro-3.21');
  }
});

// As a table (rule-tester.ts): the message ids and where (#43 item 6); the text checks above pin the wording.
ruleTester('unknown-import', {
  docsExample: { errors: [{ messageId: 'notExported', line: 1, column: 51 }] },
});
