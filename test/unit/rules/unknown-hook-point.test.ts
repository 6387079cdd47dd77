import assert from 'node:assert/strict';
import { test } from 'node:test';
import { applyFix, diagnose, expectAt, py, rangeText } from './helpers';
import { ruleTester } from './rule-tester';

test('unknown-hook-point: `mh.modify_turn_started` says turn points have no modify lane', async () => {
  const src = py`
    import rasa.mantle.hooks as mh

    @mh.modify_turn_started()
    async def mark(p: mh.TurnStartedPayload) -> mh.TurnStartedPayload:
        return p
  `;
  const diags = await diagnose('unknown-hook-point', src);
  expectAt(diags, ['3:2']);
  assert.equal(rangeText(src, diags[0]), 'mh.modify_turn_started');
  assert.match(
    diags[0].message,
    /the turn started point has no modify lane \(it is observe-only\)\. Use `on_turn_started`/,
  );
  assert.equal(applyFix(src, diags[0]), src.replace('@mh.modify_turn_started()', '@mh.on_turn_started()'));
});

test('unknown-hook-point: a misspelt qualified decorator gets a did-you-mean; an export that is no decorator is named', async () => {
  const src = py`
    from rasa.mantle import hooks
    from rasa.mantle.hooks import RetryModel

    @hooks.on_tool_calls()
    async def a(c) -> None: ...

    @RetryModel()
    async def b(c) -> None: ...
  `;
  const diags = await diagnose('unknown-hook-point', src);
  expectAt(diags, ['4:2', '7:2']);
  assert.match(
    diags[0].message,
    /`on_tool_calls` is not a hook decorator of `rasa\.mantle\.hooks`; did you mean `on_tool_call`\?/,
  );
  assert.equal(applyFix(src, diags[0]), src.replace('hooks.on_tool_calls()', 'hooks.on_tool_call()'));
  assert.match(
    diags[1].message,
    /`RetryModel` is exported by `rasa\.mantle\.hooks` but is not a hook decorator/,
  );
});

test('unknown-hook-point: no close name: the decorators of that point are listed and offered', async () => {
  const src = py`
    import rasa.mantle.hooks as mh

    @mh.on_turn_begin()
    async def mark(p: mh.TurnStartedPayload) -> None: ...
  `;
  const diags = await diagnose('unknown-hook-point', src);
  expectAt(diags, ['3:2']);
  assert.match(
    diags[0].message,
    /`on_turn_begin` is not a hook decorator of `rasa\.mantle\.hooks`\. Similar decorators: `on_turn_started`, `on_turn_finished`\./,
  );
  assert.deepEqual(
    diags[0].fixes?.map((f) => f.title),
    ['Use @mh.on_turn_started()', 'Use @mh.on_turn_finished()'],
  );
  assert.equal(applyFix(src, diags[0], 1), src.replace('mh.on_turn_begin', 'mh.on_turn_finished'));
});

test('unknown-hook-point: a real decorator used without import gets an add-import fix', async () => {
  const src = py`
    from rasa.mantle.hooks import ToolCallPayload

    @on_tool_call()
    async def audit(call: ToolCallPayload) -> None: ...
  `;
  const diags = await diagnose('unknown-hook-point', src);
  expectAt(diags, ['3:2']);
  assert.match(
    diags[0].message,
    /`@on_tool_call` is used without being imported: loading the module fails with NameError/,
  );
  assert.equal(
    applyFix(src, diags[0]),
    src.replace('import ToolCallPayload', 'import ToolCallPayload, on_tool_call'),
  );
});

test('unknown-hook-point: an unimported hook-like name gets the nearest decorator and its import', async () => {
  const src = py`
    import rasa.mantle.hooks as mh

    @modify_tool_results()
    async def redact(r: mh.ToolResultPayload) -> mh.ToolResultPayload:
        return r
  `;
  const diags = await diagnose('unknown-hook-point', src);
  expectAt(diags, ['3:2']);
  assert.match(diags[0].message, /did you mean `modify_tool_result`\? It is not imported either/);
  assert.equal(applyFix(src, diags[0]), src.replace('@modify_tool_results()', '@mh.modify_tool_result()'));
});

test('unknown-hook-point: quiet on real decorators, local on_* decorators, other libraries and a bad import (unknown-import reports it)', async () => {
  const src = py`
    import click
    from rasa.mantle.hooks import on_turn_started, on_turn_start

    def on_event(f):
        return f

    @on_turn_started()
    async def a(p) -> None: ...

    @on_event
    def b(): ...

    @click.command()
    def c(): ...

    @on_turn_start()
    async def d(p) -> None: ...
  `;
  assert.deepEqual(await diagnose('unknown-hook-point', src), []);
});

// As a table (rule-tester.ts): the message ids and where (#43 item 6); the text checks above pin the wording.
ruleTester('unknown-hook-point', {
  docsExample: { errors: [{ messageId: 'unknownMember', line: 4, column: 2 }] },
  invalid: [
    {
      name: 'an export that is no decorator, a hook decorator not imported, a misspelt bare one',
      code: [
        'import rasa.mantle.hooks as mh',
        '',
        '',
        '@mh.RetryModel()',
        'async def a(p):',
        '    pass',
        '',
        '',
        '@on_turn_started()',
        'async def b(p):',
        '    pass',
        '',
        '',
        '@on_turn_start()',
        'async def c(p):',
        '    pass',
        '',
      ].join('\n'),
      errors: [
        { messageId: 'notADecorator', line: 4, column: 2 },
        { messageId: 'notImported', line: 9, column: 2 },
        { messageId: 'unknownName', line: 14, column: 2 },
      ],
    },
  ],
});
