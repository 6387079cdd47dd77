// unknown-attribute (#41): attributes a Mantle payload or a Cayu context does not have. Fields
// come from the catalogue; the catalogue is checked against the installed rasa-pro 3.21 models
// (where it imports) so that a real field — `OutgoingTextPayload.is_voice`, read by a community
// hook — is never reported.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { pythonWith, skipUnless } from '../../python-envs';
import { applyFix, diagnose, py, rangeText } from './helpers';
import { hookWith } from './cayu-fixtures';
import { PAYLOAD_TYPES, allFields } from '../../../runtime/catalogue';
import { ruleTester } from './rule-tester';

const CODE = 'unknown-attribute';

describe(CODE, () => {
  const mantle = pythonWith(['rasa.mantle.hooks']);
  it('every field of the installed rasa-pro payload models is in the catalogue', skipUnless(mantle), () => {
    const python = mantle.python!;
    const script =
      'import json\nfrom rasa.mantle.hooks import payloads as p\n' +
      'print(json.dumps({n: sorted(c.model_fields) for n, c in vars(p).items() ' +
      'if isinstance(c, type) and n.endswith("Payload") and n != "HookPayload"}))';
    const r = spawnSync(python, ['-c', script], { encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
    const engine = JSON.parse(r.stdout.trim().split('\n').pop()!) as Record<string, string[]>;
    for (const type of PAYLOAD_TYPES) {
      const fields = engine[type.name];
      if (!fields) continue; // a line that renames the class: #39 keeps that mapping
      const ours = new Set(allFields(type).map((f) => f.name));
      for (const f of fields) assert.ok(ours.has(f), `${type.name}.${f} is a field of the installed engine`);
    }
  });

  it('flags a misspelt payload field with did-you-mean and a fix', async () => {
    const src = py`
      from rasa.mantle.hooks import ToolCallPayload, modify_tool_call


      @modify_tool_call()
      async def clamp(call: ToolCallPayload) -> ToolCallPayload:
          limit = call.argumentz.get("limit")
          return call.model_copy(update={"arguments": {"limit": limit}})
    `;
    const ds = await diagnose(CODE, src);
    assert.deepEqual(
      ds.map((d) => rangeText(src, d)),
      ['argumentz'],
    );
    assert.match(
      ds[0]!.message,
      /`call` \(ToolCallPayload\) has no attribute `argumentz`; did you mean `arguments`\?/,
    );
    assert.equal(ds[0]!.severity, 'warning');
    assert.ok(applyFix(src, ds[0]!).includes('call.arguments.get("limit")'));
  });

  it('real fields, identity, Pydantic methods, private names, guarded reads and rebound parameters stay quiet', async () => {
    const src = py`
      from rasa.mantle.hooks import OutgoingTextPayload, ToolResultPayload, on_outgoing_text, on_tool_result


      @on_outgoing_text()
      async def outgoing_text(payload: OutgoingTextPayload) -> None:
          print(payload.sender_id, payload.is_voice, payload.text, payload.channel.name, payload.call)


      @on_tool_result()
      async def seen(result: ToolResultPayload) -> None:
          print(result.model_dump(), result.model_fields_set, result.copy(), result._private)
          if hasattr(result, "latency"):
              print(result.latency)


      @on_tool_result()
      async def rebound(result: ToolResultPayload) -> None:
          result = result.value
          print(result.upper())
    `;
    assert.deepEqual(await diagnose(CODE, src), []);
  });

  it('a nested function reading another object under the same name stays quiet', async () => {
    const src = py`
      from rasa.mantle.hooks import ToolCallPayload, on_tool_call


      @on_tool_call()
      async def log(call: ToolCallPayload) -> None:
          def fmt(call):
              return call.whatever
          print(fmt(object()))
    `;
    assert.deepEqual(await diagnose(CODE, src), []);
  });

  it('Cayu: a misspelt context property and a ToolResult field; real ones and methods stay quiet', async () => {
    const src = hookWith(
      [
        'async def before_tool_call(self, context: BeforeToolCallHookContext):',
        '    print(context.tool_nmae, context.tool_name, context.arguments, context.hook_name)',
        '    await context.emit_custom_event("custom.x")',
        '    return None',
        '',
        'async def after_tool_call(self, context):',
        '    print(context.result.contnet, context.result.content, context.result.is_error, context.tool_event)',
        '    print(context.result.model_copy(), context.session.id)',
        '    return None',
        '',
        'async def after_session_completed(self, context):',
        '    print(context.terminal_event, context.arguments)',
      ].join('\n'),
    );
    const ds = await diagnose(CODE, src);
    assert.deepEqual(
      ds.map((d) => rangeText(src, d)),
      ['tool_nmae', 'contnet', 'arguments'],
    );
    assert.match(ds[0]!.message, /did you mean `tool_name`\?/);
    assert.match(
      ds[1]!.message,
      /`context\.result` \(ToolResult\) has no attribute `contnet`; did you mean `content`\?/,
    );
    assert.match(ds[2]!.message, /`context` \(RuntimeHookContext\) has no attribute `arguments`/);
  });
});

// The rule's docs example as a table (rule-tester.ts): quiet on the fixed code; on the bad code,
// the message id it reports and where (#43 item 6).
ruleTester('unknown-attribute', {
  docsExample: { errors: [{ messageId: 'noAttributeDidYouMean', line: 6, column: 26 }] },
});
