import assert from 'node:assert/strict';
import { describe, it, test } from 'node:test';
import { applyFix, diagnose, expectAt, py, rangeText } from './helpers';
import { ruleTester } from './rule-tester';

test('tool-result-value-is-text: isinstance, indexing, .get/.items, iteration on a tool-result value', async () => {
  const src = py`
    from rasa.mantle.hooks import ToolResultPayload, modify_tool_result, on_tool_result

    @modify_tool_result()
    async def redact(result: ToolResultPayload) -> ToolResultPayload:
        if isinstance(result.value, dict) and "ssn" in result.value:
            return result.model_copy(update={"value": "{}"})
        if isinstance(result.value, (dict, list)):
            pass
        token = result.value["token"]
        return result

    @on_tool_result()
    async def audit(payload: ToolResultPayload) -> None:
        status = payload.value.get("status")
        for key, item in payload.value.items():
            pass
        for k in payload.value:
            pass
  `;
  const diags = await diagnose('tool-result-value-is-text', src);
  expectAt(diags, ['5:19', '7:19', '9:13', '14:14', '15:22', '17:14']);
  assert.ok(diags.every((d) => d.severity === 'warning'));
  assert.ok(diags.every((d) => /\.value/.test(rangeText(src, d))));
  assert.match(
    diags[0]!.message,
    /`result\.value` is the tool result as JSON text.*`isinstance\(result\.value, dict\)` is always false/,
  );
  assert.match(diags[3]!.message, /no `\.get\(\)`/);
});

test('tool-result-value-is-text: the quick fix parses with json.loads, importing json among the plain imports', async () => {
  const src = py`
    import asyncio
    import structlog
    from rasa.mantle.hooks import ToolResultPayload, modify_tool_result

    @modify_tool_result()
    async def redact(result: ToolResultPayload) -> ToolResultPayload:
        if isinstance(result.value, dict):
            return result
        return result
  `;
  const [d] = await diagnose('tool-result-value-is-text', src);
  assert.ok(d);
  assert.equal(d.fixes?.[0]?.title, 'Parse with json.loads(result.value)');
  assert.equal(
    applyFix(src, d),
    py`
    import asyncio
    import json
    import structlog
    from rasa.mantle.hooks import ToolResultPayload, modify_tool_result

    @modify_tool_result()
    async def redact(result: ToolResultPayload) -> ToolResultPayload:
        if isinstance(json.loads(result.value), dict):
            return result
        return result
  `,
  );
});

test('tool-result-value-is-text: an existing json import is reused (module, alias or loads)', async () => {
  for (const [imp, call] of [
    ['import json', 'json.loads'],
    ['import json as j', 'j.loads'],
    ['from json import loads', 'loads'],
  ] as const) {
    const src = py`
      ${imp}
      from rasa.mantle.hooks import ToolResultPayload, on_tool_result

      @on_tool_result()
      async def audit(p: ToolResultPayload) -> None:
          x = p.value.get("k")
    `;
    const [d] = await diagnose('tool-result-value-is-text', src);
    assert.ok(d, imp);
    const fixed = applyFix(src, d);
    assert.ok(fixed.includes(`x = ${call}(p.value).get("k")`), fixed);
    assert.equal(fixed.split('\n').length, src.split('\n').length, `no new import with ${imp}`);
  }
});

test('tool-result-value-is-text: quiet on parsed values, str checks, other points, comments and strings', async () => {
  const src = py`
    import json
    from rasa.mantle.hooks import ToolCallPayload, ToolResultPayload, modify_tool_call, modify_tool_result

    @modify_tool_result()
    async def redact(result: ToolResultPayload) -> ToolResultPayload:
        data = json.loads(result.value)
        if isinstance(result.value, str) and isinstance(data, dict):
            data.get("x")
        # isinstance(result.value, dict) and result.value["k"] in a comment
        note = "for x in result.value: result.value['k']"
        other = result.arguments.get("q")
        preview = result.value[:200]
        return result

    @modify_tool_call()
    async def guard(call: ToolCallPayload) -> ToolCallPayload:
        value = call.arguments
        if isinstance(call.value, dict):
            pass
        return call
  `;
  assert.deepEqual(await diagnose('tool-result-value-is-text', src), []);
});

describe('tool-result-value-is-text through an alias (#41)', () => {
  it('flags `value = result.value` then .get(), isinstance(value, dict), indexing', async () => {
    const src = py`
      from rasa.mantle.hooks import ToolResultPayload, modify_tool_result


      @modify_tool_result()
      async def redact(result: ToolResultPayload) -> ToolResultPayload:
          value = result.value
          if isinstance(value, dict):
              value.pop("ssn", None)
          name = value["name"]
          return result.model_copy(update={"value": value.get("x")})
    `;
    const ds = await diagnose('tool-result-value-is-text', src);
    assert.deepEqual(
      ds.map((d) => rangeText(src, d)),
      ['value', 'value', 'value', 'value'],
    );
    assert.deepEqual(
      ds.map((d) => d.range.start.line + 1),
      [7, 8, 9, 10],
    );
    assert.match(ds[0]!.message, /`value` \(bound to `result\.value`\)/);
    assert.ok(applyFix(src, ds[3]!).includes('"value": json.loads(value).get("x")'));
  });

  it('stays quiet when the name is parsed, rebound, or a slice of the text', async () => {
    const src = py`
      import json

      from rasa.mantle.hooks import ToolResultPayload, on_tool_result


      @on_tool_result()
      async def a(result: ToolResultPayload) -> None:
          value = result.value
          value = json.loads(value)
          print(value.get("x"), value["y"])


      @on_tool_result()
      async def b(result: ToolResultPayload) -> None:
          text = result.value
          print(text[:200], text.strip())


      @on_tool_result()
      async def c(result: ToolResultPayload) -> None:
          data = json.loads(result.value)
          if isinstance(data, dict):
              print(data.get("x"))
    `;
    assert.deepEqual(await diagnose('tool-result-value-is-text', src), []);
  });
});

// The rule's docs example as a table (rule-tester.ts): quiet on the fixed code; on the bad code,
// the message id it reports and where (#43 item 6).
ruleTester('tool-result-value-is-text', {
  docsExample: { errors: [{ messageId: 'jsonText', line: 10, column: 32 }] },
});
