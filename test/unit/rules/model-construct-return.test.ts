// model-construct-return (#41): a modify hook returning Payload.model_construct(...). A warning:
// the rasa-pro 3.21 runner accepts it (isinstance only, runner.py:360-366), checked below with
// the real runner where rasa-pro imports.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { pythonWith, skipUnless } from '../../python-envs';
import { applyFix, diagnose, py, rangeText } from './helpers';
import { ruleTester } from './rule-tester';

const CODE = 'model-construct-return';

describe(CODE, () => {
  const mantle = pythonWith(['rasa.mantle.hooks']);
  it(
    'the installed runner accepts a model_construct result unvalidated (why it is a warning)',
    skipUnless(mantle),
    () => {
      const python = mantle.python!;
      const script = [
        'import asyncio, logging, json',
        'logging.disable(logging.CRITICAL)',
        'from rasa.mantle.hooks import ToolResultPayload, modify_tool_result',
        'from rasa.mantle.hooks.registry import HookRegistry',
        'from rasa.mantle.hooks.runner import run_modify',
        '@modify_tool_result()',
        'async def redact(result: ToolResultPayload) -> ToolResultPayload:',
        '    return ToolResultPayload.model_construct(value={"a": 1})',
        'reg = HookRegistry(); reg.register_function(redact)',
        'p = ToolResultPayload(sender_id="u", tool_name="t", arguments={}, value="{}")',
        'r = asyncio.run(run_modify(reg, "tool_result", p))',
        'print(json.dumps([str(r.outcome), type(r.payload.value).__name__, hasattr(r.payload, "tool_name")]))',
      ].join('\n');
      const r = spawnSync(python, ['-c', script], { encoding: 'utf8' });
      assert.equal(r.status, 0, r.stderr);
      assert.deepEqual(JSON.parse(r.stdout.trim().split('\n').pop()!), ['success', 'dict', false]);
    },
  );

  it('flags a direct return, type(payload).model_construct and a name bound only to one', async () => {
    const src = py`
      from rasa.mantle.hooks import OutgoingTextPayload, ToolResultPayload, modify_outgoing_text, modify_tool_result


      @modify_outgoing_text()
      async def tidy(message: OutgoingTextPayload) -> OutgoingTextPayload:
          if not message.text:
              return type(message).model_construct(text="")
          return OutgoingTextPayload.model_construct(text=message.text.strip())


      @modify_tool_result()
      async def redact(result: ToolResultPayload) -> ToolResultPayload:
          built = ToolResultPayload.model_construct(**result.model_dump())
          return built
    `;
    const ds = await diagnose(CODE, src);
    assert.deepEqual(
      ds.map((d) => rangeText(src, d)),
      [
        'type(message).model_construct(text="")',
        'OutgoingTextPayload.model_construct(text=message.text.strip())',
        'built',
      ],
    );
    assert.equal(ds[0]!.severity, 'warning');
    assert.ok(
      applyFix(src, ds[1]!).includes('return message.model_copy(update={"text": message.text.strip()})'),
    );
    assert.equal(ds[2]!.fixes, undefined);
  });

  it('observe hooks, model_copy, model_construct not returned and nested functions stay quiet', async () => {
    const src = py`
      from rasa.mantle.hooks import OutgoingTextPayload, modify_outgoing_text, on_outgoing_text


      @on_outgoing_text()
      async def seen(message: OutgoingTextPayload) -> None:
          print(OutgoingTextPayload.model_construct(text="x"))


      @modify_outgoing_text()
      async def tidy(message: OutgoingTextPayload) -> OutgoingTextPayload:
          def sample():
              return OutgoingTextPayload.model_construct(text="x")
          probe = OutgoingTextPayload.model_construct(text="x")
          print(sample(), probe)
          return message.model_copy(update={"text": message.text.strip()})
    `;
    assert.deepEqual(await diagnose(CODE, src), []);
  });
});

// The rule's docs example as a table (rule-tester.ts): quiet on the fixed code; on the bad code,
// the message id it reports and where (#43 item 6).
ruleTester('model-construct-return', {
  docsExample: { errors: [{ messageId: 'skipsValidation', line: 6, column: 12 }] },
});
