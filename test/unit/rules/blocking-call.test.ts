import assert from 'node:assert/strict';
import { test } from 'node:test';
import { diagnose, expectAt, py, rangeText } from './helpers';
import { ruleTester } from './rule-tester';

test('blocking-call: time.sleep, requests, subprocess, urlopen and input inside async hooks, with budget and alternative', async () => {
  const src = py`
    import time
    import requests as http
    from subprocess import run
    from urllib.request import urlopen
    from rasa.mantle.hooks import ToolResultPayload, modify_tool_result, on_tool_result

    @on_tool_result()
    async def audit(result: ToolResultPayload) -> None:
        time.sleep(0.05)
        http.post("https://audit.example", json={"v": result.value})

    @modify_tool_result(timeout_ms=2000)
    async def enrich(result: ToolResultPayload) -> ToolResultPayload:
        run(["ls"])
        urlopen("https://example.com").read()
        input("?")
        return result
  `;
  const diags = await diagnose('blocking-call', src);
  expectAt(diags, ['9:5', '10:5', '14:5', '15:5', '16:5']);
  assert.equal(diags[0].severity, 'warning');
  assert.equal(rangeText(src, diags[0]), 'time.sleep');
  assert.match(
    diags[0].message,
    /`time\.sleep` blocks the event loop inside async hook `audit`, which has a 100 ms budget \(the observe default\).*Use `await asyncio\.sleep\(\.\.\.\)`/,
  );
  assert.match(diags[1].message, /`http\.post` .*httpx\.AsyncClient/);
  assert.match(
    diags[2].message,
    /`run` blocks .* 2000 ms budget \(timeout_ms\).*asyncio\.create_subprocess_exec/,
  );
  assert.match(diags[4].message, /a hook has no terminal/);
});

test('blocking-call: quiet on asyncio, awaited calls, local functions named like builtins and sync helpers', async () => {
  const src = py`
    import asyncio
    import httpx
    from rasa.mantle.hooks import ToolCallPayload, on_tool_call

    def input(prompt):
        return prompt

    def helper():
        import time
        time.sleep(1)

    @on_tool_call()
    async def audit(call: ToolCallPayload) -> None:
        await asyncio.sleep(0.01)
        async with httpx.AsyncClient() as client:
            await client.get("https://example.com")
        input("x")
  `;
  assert.deepEqual(await diagnose('blocking-call', src), []);
});

// The rule's docs example as a table (rule-tester.ts): quiet on the fixed code; on the bad code,
// the message id it reports and where (#43 item 6).
ruleTester('blocking-call', {
  docsExample: { errors: [{ messageId: 'blocksLoop', line: 8, column: 5 }] },
});
