"""Records what the real Cayu runtime does with each case of the Cayu conformance corpus.

Run wherever `cayu` is importable (HOOKSMITH_CAYU_SRC: the folder holding the `cayu` package,
e.g. a checkout's src/); it needs cayu's own dependencies (pydantic 2, httpx) on the path.
Each case folder of test/fixtures/cayu-corpus/cases holds hooks.py (RuntimeHook classes, registered
in the order they are defined; those named in case.json "app_hooks" at app scope, in that order)
and case.json (the tool-call batches the model makes, or "turns": a conversation, each turn its
own batches; the mock tools: value, error, raises, denied). The runtime is driven as cayu's own
tests/core/test_runtime.py drives it: a scripted provider, recording tools, one app with one
instance per hook class, one session (run, then resume for each later turn).
Writes test/fixtures/cayu-corpus/recorded.json: data only, what happened, no Cayu code.

    HOOKSMITH_CAYU_SRC=/path/to/cayu/src npm run record:cayu [-- CASE...]
"""
import asyncio
import importlib.util
import json
import math
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT / "test" / "fixtures" / "cayu-corpus"



def _source_checkout_metadata(src_dir):
    """A source checkout has no installed metadata, and the runtime reads its version from it (a
    run without one is refused): give importlib.metadata the version its pyproject.toml declares."""
    import importlib.metadata as md
    import re
    import tempfile
    try:
        md.version("cayu")
        return
    except md.PackageNotFoundError:
        pass
    pyproject = Path(src_dir).parent / "pyproject.toml"
    found = re.search(r'^version\s*=\s*"([^"]+)"', pyproject.read_text(), re.M) if pyproject.is_file() else None
    if not found:
        return
    meta = Path(tempfile.mkdtemp(prefix="cayu-meta-")) / f"cayu-{found.group(1)}.dist-info"
    meta.mkdir()
    (meta / "METADATA").write_text(f"Metadata-Version: 2.1\nName: cayu\nVersion: {found.group(1)}\n")
    sys.path.append(str(meta.parent))


src = os.environ.get("HOOKSMITH_CAYU_SRC")
if src:
    sys.path.insert(0, src)
    _source_checkout_metadata(src)
try:
    import cayu  # noqa: F401
    from cayu.providers import ModelProvider, ModelStreamEvent

    try:  # 0.15 (the layout since 0.9): cayu.runtime and cayu no longer export the hook API
        from cayu import AgentSpec, CayuApp, EventType, Message, ResumeRequest, RunRequest
        from cayu.observability import RuntimeHook
        from cayu.sessions import InMemorySessionStore
        from cayu.tools import (Tool, ToolContext, ToolPolicy, ToolPolicyDecision, ToolPolicyResult, ToolResult,
                                ToolSpec)
    except ImportError:  # 0.3: cayu.core, cayu.runtime
        from cayu.core import AgentSpec, EventType, Message
        from cayu.core.tools import Tool, ToolContext, ToolResult, ToolSpec
        from cayu.runtime import (
            CayuApp,
            InMemorySessionStore,
            ResumeRequest,
            RunRequest,
            RuntimeHook,
            ToolPolicy,
            ToolPolicyDecision,
            ToolPolicyResult,
        )
except ImportError as e:
    sys.exit(f"record-cayu-corpus: cayu is not importable ({e}); set HOOKSMITH_CAYU_SRC to its src folder")


def compact(value):
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


class ScriptedProvider(ModelProvider):
    """Per turn: each batch of tool calls is one completion; then a final text completion (or a failure)."""

    name = "scripted"

    def __init__(self, turns):
        self.script = []
        for turn in turns:
            self.script += [("batch", batch) for batch in turn["batches"]]
            self.script.append(("fail", turn["provider_error"]) if turn.get("provider_error") else ("text", None))
        self.asked = 0

    async def stream(self, request):
        kind, item = self.script[self.asked] if self.asked < len(self.script) else ("text", None)
        self.asked += 1
        if kind == "batch":
            for call in item:
                yield ModelStreamEvent.tool_call(id=call["id"], name=call["tool_name"], arguments=call["tool_args"])
            yield ModelStreamEvent.completed({"finish_reason": "tool_calls"})
            return
        if kind == "fail":
            raise RuntimeError(item)
        yield ModelStreamEvent.text_delta("done")
        yield ModelStreamEvent.completed({"finish_reason": "stop"})


def mock_tool(name, mock, ran):
    class MockTool(Tool):
        spec = ToolSpec(name=name, description=f"mock {name}", input_schema={"type": "object"})

        async def run(self, ctx: ToolContext, args: dict) -> ToolResult:
            ran.append({"tool_name": name, "arguments": args})
            if "error" in mock:
                return ToolResult(content=mock["error"], is_error=True)
            if "raises" in mock:
                raise RuntimeError(mock["raises"])
            value = mock.get("value")
            structured = value if isinstance(value, dict) else None
            return ToolResult(content=compact(value), structured=structured)

    return MockTool()


class DenyPolicy(ToolPolicy):
    def __init__(self, denied):
        self.denied = denied

    async def authorize(self, request):
        reason = self.denied.get(request.tool_name)
        if reason is not None:
            return ToolPolicyResult(decision=ToolPolicyDecision.DENY, reason=reason)
        return ToolPolicyResult(decision=ToolPolicyDecision.ALLOW)


def load_hooks(case_dir, name):
    spec = importlib.util.spec_from_file_location(f"corpus_{name}", case_dir / "hooks.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return [
        v for v in vars(mod).values()
        if isinstance(v, type) and issubclass(v, RuntimeHook) and v.__module__ == mod.__name__
    ]


def result_parts(transcript):
    parts = []
    for message in transcript:
        for part in getattr(message, "content", []) or []:
            if type(part).__name__ == "ToolResultPart":
                parts.append(part)
    return parts


def hook_row(event):
    p = event.payload
    row = {"phase": p["phase"], "hook": p["hook_name"], "scope": p["scope"],
           "status": "completed" if event.type == EventType.HOOK_COMPLETED else "failed"}
    if event.type == EventType.HOOK_FAILED:
        row["error_type"] = p.get("error_type")
    if p.get("tool_name"):
        row["tool_name"] = p["tool_name"]
    return row


def turns_of(case):
    """The case's turns with their calls' ids: call_<batch>_<i> (a conversation's: call_t<turn>_<batch>_<i>)."""
    turns = case.get("turns") or [{"batches": case["batches"], "provider_error": case.get("provider_error")}]
    prefix = (lambda t: f"t{t + 1}_") if case.get("turns") else (lambda t: "")
    return [{**turn, "batches": [[{**c, "id": c.get("id") or f"call_{prefix(t)}{b}_{i}"} for i, c in enumerate(batch)]
                                 for b, batch in enumerate(turn["batches"])]}
            for t, turn in enumerate(turns)]


async def play(case_dir, name, case, out):
    classes = {c.__name__: c for c in load_hooks(case_dir, name)}
    app_names = case.get("app_hooks", [])
    app_hooks = [classes[n]() for n in app_names]
    agent_hooks = [c() for n, c in classes.items() if n not in app_names]
    turns = turns_of(case)
    ran = out["ran"]
    tools = {n: mock_tool(n, m, ran) for n, m in case.get("tools", {}).items()}
    denied = {n: m["denied"] for n, m in case.get("tools", {}).items() if "denied" in m}
    store = out["store"] = InMemorySessionStore()
    app = CayuApp(session_store=store, **({"runtime_hooks": app_hooks} if app_hooks else {}))
    app.register_provider(ScriptedProvider(turns), default=True)
    app.register_agent(AgentSpec(name="assistant", model="fake-model"), tools=list(tools.values()),
                       runtime_hooks=agent_hooks, **({"tool_policy": DenyPolicy(denied)} if denied else {}))
    events = out["events"]
    session = f"s_{name}"
    for t in range(len(turns)):
        stream = (app.run(RunRequest(agent_name="assistant", session_id=session, messages=[Message.text("user", "go")]))
                  if t == 0 else app.resume(ResumeRequest(session_id=session, messages=[Message.text("user", "go")])))
        async for event in stream:
            events.append(event)
        terminal = [e for e in events if str(e.type).startswith("session.")]
        out["statuses"].append(str(terminal[-1].type).removeprefix("session.") if terminal else None)


async def saved_results(case, store, name):
    parts = {p.tool_call_id: p for p in result_parts(await store.load_transcript(f"s_{name}"))}
    calls = []
    for turn in turns_of(case):
        for batch in turn["batches"]:
            for call in batch:
                part = parts.get(call["id"])
                calls.append({"id": call["id"], "tool_name": call["tool_name"],
                              "result": None if part is None else {"content": part.content, "is_error": part.is_error}})
    return calls


async def session_status(store, name):
    status = getattr(await store.load(f"s_{name}"), "status", None)
    return None if status is None else str(getattr(status, "value", status))


def record(name):
    case_dir = CORPUS / "cases" / name
    case = json.loads((case_dir / "case.json").read_text())
    out = {"ran": [], "events": [], "statuses": [], "store": None}

    try:
        asyncio.run(play(case_dir, name, case, out))
    except Exception:
        raise
    except BaseException as e:  # noqa: B902 - a BaseException from a hook ends the run: that is the fact
        # (KeyboardInterrupt / SystemExit from a batch's task leave asyncio.run itself.)
        out["ended_by"] = type(e).__name__
    out["calls"] = asyncio.run(saved_results(case, out["store"], name))
    if out.get("ended_by"):
        # What the run saved before it ended (CancelledError: the interrupted call's result), and the
        # status the store keeps for the session (a run that raised may leave it running).
        return {"ended_by": out["ended_by"], "session": asyncio.run(session_status(out["store"], name)),
                "calls": out["calls"]}
    events = out["events"]
    row = {"hooks": [hook_row(e) for e in events if e.type in (EventType.HOOK_COMPLETED, EventType.HOOK_FAILED)],
           "calls": out["calls"], "ran": out["ran"], "status": out["statuses"][-1], "ended_by": None}
    if case.get("turns"):
        row["statuses"] = out["statuses"]
    return row


def recording_path():
    """recorded.json holds 0.3.0's recording; another version's is recorded-<version>.json."""
    import importlib.metadata as md
    version = md.version("cayu")
    return CORPUS / ("recorded.json" if version == "0.3.0" else f"recorded-{version}.json")


def main(argv):
    names = argv or sorted(p.name for p in (CORPUS / "cases").iterdir() if (p / "case.json").is_file())
    path = recording_path()
    recorded = json.loads(path.read_text()) if path.is_file() else {"cases": {}}
    for name in names:
        recorded["cases"][name] = record(name)
        print(f"{name}: {compact(recorded['cases'][name])[:160]}")
    import importlib.metadata as md
    recorded["cayu"] = md.version("cayu")
    recorded["cases"] = dict(sorted(recorded["cases"].items()))
    path.write_text(json.dumps(recorded, indent=2, ensure_ascii=False) + "\n")


if __name__ == "__main__":
    main(sys.argv[1:])
