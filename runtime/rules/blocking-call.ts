// blocking-call: a known blocking call inside an async hook, which stalls the event loop.
import type { HookDiagnostic } from './diagnostics';
import type { Rule } from './rule';
import { q, reportMessage } from './util/diagnostic';
import { BLOCKING_BUILTINS, BLOCKING_CALLS, BLOCKING_ROOTS, findBlockingCall } from './util/blocking-calls';
import { importsAnyRoot } from '../python/module-facts';
import { mantleHooks } from '../python/hooks';
import { locallyBound } from '../python/names';

export const blockingCall: Rule = {
  code: 'blocking-call',
  engine: 'mantle',
  severity: 'warning',
  title: 'Blocking call inside an async hook',
  docs: {
    what: `A call to a known blocking function inside an \`async def\` hook: ${BLOCKING_CALLS.map((c) => `\`${c.name}\``).join(', ')}. Calls are matched through the module's imports (\`from time import sleep\`, \`import requests as r\`); calls in helper functions are not followed, and file I/O is not reported.`,
    why: "Hooks run on the engine's event loop with a small budget (100 ms for observe hooks, 500 ms for modify hooks unless `timeout_ms` says otherwise). A blocking call holds the whole loop: the timeout cannot even fire on time, other hooks and the turn stall, and a modify hook that overruns triggers its fail policy.",
    spec: 'spec/mantle-hooks.md, Timeouts: "observe (`on_*`) 100; modify (`modify_*`) on text / LLM / tool / knowledge 500". Registration: "Always `async def`." DESIGN.md: "a known blocking call such as `time.sleep` or `requests.get` inside an async hook, which eats the 100/500 ms budget".',
    fix: 'Use the asyncio equivalent: `await asyncio.sleep(...)` for `time.sleep`, `httpx.AsyncClient` (or aiohttp) for `requests` / `urlopen`, `asyncio.create_subprocess_exec` for `subprocess`, `asyncio.open_connection` for sockets. Or hand slow work to `asyncio.to_thread(...)`.',
    example: {
      bad: `import time

from rasa.mantle.hooks import ToolCallPayload, on_tool_call


@on_tool_call()
async def throttle(call: ToolCallPayload) -> None:
    time.sleep(0.5)
`,
      good: `import asyncio

from rasa.mantle.hooks import ToolCallPayload, on_tool_call


@on_tool_call()
async def throttle(call: ToolCallPayload) -> None:
    await asyncio.sleep(0.5)
`,
    },
  },
  fixable: false,
  messages: {
    blocksLoop:
      '{{callee}} blocks the event loop inside async hook {{hook}}, which has a {{budget}}: the loop, the other hooks and the turn stall until it returns. Use {{instead}}.',
  },
  check(ctx) {
    const out: HookDiagnostic[] = [];
    // Without an import of time, requests, … no qualified call can be one: only builtins remain,
    // and a call of `input` has the word in the text. Most modules have neither: the calls of
    // every hook are then not read at all (that walk was the largest cost of all the rules).
    const qualifiedMayMatch = importsAnyRoot(ctx.module, BLOCKING_ROOTS);
    if (!qualifiedMayMatch && !BLOCKING_BUILTINS.some((name) => ctx.text.includes(name))) return out;
    const isBound = (name: string) => locallyBound(ctx.module, name);
    for (const h of mantleHooks(ctx.module)) {
      if (!h.fn.isAsync) continue; // sync-handler reports the hook itself
      for (const call of h.fn.body.calls) {
        if (call.awaited) continue;
        const { qualified, text } = call.callee;
        if (qualified !== undefined && !qualifiedMayMatch) continue;
        const known = findBlockingCall(qualified, text, isBound);
        if (!known) continue;
        const budget = `${h.timeoutMs} ms ${h.decorator.call?.keywords.some((k) => k.name === 'timeout_ms') ? 'budget (timeout_ms)' : `budget (the ${h.lane} default)`}`;
        out.push(
          reportMessage(this, ctx, call.callee.range, 'blocksLoop', {
            callee: q(call.callee.text),
            hook: q(h.fn.name),
            budget,
            instead: known.instead,
          }),
        );
      }
    }
    return out;
  },
};
