"""The installed cayu's own floor: the example's conversation shape (two turns, three tool calls,
a scripted provider) played through the public API with no hook and no Hooksmith code, a fresh
app and session store per play as Hooksmith's real-engine mode does. Prints one line of JSON:
{"cayu": version, "plays": [ms, ...]} for N warm plays (the first play, which warms imports and
caches, is not counted). Usage: python cayu_floor.py [N]."""
import asyncio
import importlib.metadata as md
import json
import sys
import time

from cayu import AgentSpec, CayuApp, Message, ResumeRequest, RunRequest
from cayu.providers import ModelProvider, ModelStreamEvent
from cayu.sessions import InMemorySessionStore
from cayu.tools import Tool, ToolResult, ToolSpec

TURNS = [
    ("Who am I?", [[("c1", "lookup_customer")], []]),
    ("Show my orders and my invoices", [[("c2", "list_orders"), ("c3", "list_invoices")], []]),
]


class Scripted(ModelProvider):
    name = "floor-scripted"

    def __init__(self) -> None:
        self.queue = []

    async def stream(self, request):
        calls = self.queue.pop(0)
        for call_id, name in calls:
            yield ModelStreamEvent.tool_call(id=call_id, name=name, arguments={})
        if not calls:
            yield ModelStreamEvent.text_delta("done")
        yield ModelStreamEvent.completed({"finish_reason": "tool_calls" if calls else "stop"})


def tool(name: str) -> Tool:
    class Fixed(Tool):
        spec = ToolSpec(name=name, description=name, input_schema={"type": "object"},
                        max_terminal_payload_bytes=4096)

        async def run(self, ctx, args):
            return ToolResult(content="[]")

    return Fixed()


async def play() -> None:
    provider, store = Scripted(), InMemorySessionStore()
    app = CayuApp(session_store=store)
    app.register_provider(provider, default=True)
    names = [name for _, rounds in TURNS for calls in rounds for _, name in calls]
    app.register_agent(AgentSpec(name="assistant", model="scripted"), tools=[tool(n) for n in names])
    for i, (text, rounds) in enumerate(TURNS):
        provider.queue = [list(r) for r in rounds]
        messages = [Message.text("user", text)]
        stream = (app.run(RunRequest(agent_name="assistant", session_id="s", messages=messages)) if i == 0
                  else app.resume(ResumeRequest(session_id="s", messages=messages)))
        async for _ in stream:
            pass


def main() -> None:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 10
    asyncio.run(play())
    plays = []
    for _ in range(n):
        t0 = time.perf_counter()
        asyncio.run(play())
        plays.append(round((time.perf_counter() - t0) * 1000, 1))
    print(json.dumps({"cayu": md.version("cayu"), "plays": plays}))


if __name__ == "__main__":
    main()
