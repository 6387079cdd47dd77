"""Writes the Mantle conformance corpus and records what rasa-pro's own hook runner does with it.

Run with an interpreter where rasa.mantle.hooks imports (rasa-pro 3.21.0; no license key needed):

    HOOKSMITH_MANTLE_PYTHON=/path/to/venv/bin/python npm run record:mantle

Each case is an agent root under test/fixtures/mantle-corpus/cases/<name>/ (hooks.py and/or hooks/),
and case.json: the point, the payload (JSON, as a payload file holds it), and which hooks to call.
The cases are every point by every way a hook can end (returns, raises, times out, RetryModel where
allowed and where not, HookRejection, writes a read-only or identity field, assigns to the frozen
payload, returns the wrong type or None, mutates in place, blocks the loop, is not async), plus
combinations (two modify hooks on one point, in hooks.py and in hooks/, observe beside modify, a hook
imported into another module). The engine plays them as its orchestration does
(rasa/mantle/orchestration/hooks/*.py): load_hooks(root) (loader.py:152), then run_observers (awaited
here, fire-and-forget in a turn) and run_modify on the payload model. Outcomes per hook are the
runner's own log records (runner.py:188 mantle.hooks.execution). Writes recorded.json: data only.
"""
import asyncio
import json
import os
import shutil
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT / "test" / "fixtures" / "mantle-corpus"
TIMEOUT_MS = 400

IDENTITY = {"sender_id": "corpus-user", "call": {"phone_number": None, "metadata": {}}, "channel": {"name": "rest", "metadata": {}}}

# point -> (payload class, payload, a change to a mutable field, a read-only field and a value,
#           an in-place mutation of a mutable container or None, signals allowed)
POINTS = {
    "turn_started": ("TurnStartedPayload", {"is_voice": False, "turn_id": None}, None, None, None),
    "turn_finished": ("TurnFinishedPayload", {"status": "completed", "turn_id": None}, None, None, None),
    "incoming_message": ("IncomingMessagePayload", {"text": "hello there", "message_id": None},
                         {"text": "HELLO THERE"}, ("message_id", "m-9"), None),
    "model_request": ("ModelRequestPayload", {"messages": [{"role": "user", "content": "hi"}], "model_settings": {},
                                              "tool_names": ["lookup"], "iteration": 0},
                      {"model_settings": {"temperature": 0.2}}, ("tool_names", []),
                      'payload.messages.append({"role": "system", "content": "be brief"})'),
    "model_response": ("ModelResponsePayload", {"text": "Sure.", "tool_calls": [], "latency_ms": 12.5},
                       {"text": "Sure!"}, ("latency_ms", 1.0),
                       'payload.tool_calls.append({"id": "c1", "tool_name": "lookup", "tool_args": {}})'),
    "tool_call": ("ToolCallPayload", {"tool_name": "lookup", "arguments": {"id": 1}, "headers": {}},
                  {"arguments": {"id": 2}}, ("headers", {"x": "y"}), 'payload.arguments["id"] = 3'),
    "tool_result": ("ToolResultPayload", {"tool_name": "lookup", "arguments": {"id": 1}, "value": '{"a": 1}',
                                          "is_error": False},
                    {"value": '{"a": 2}'}, ("tool_name", "other"), 'payload.arguments["seen"] = True'),
    "knowledge_query": ("KnowledgeQueryPayload", {"query": "opening hours"}, {"query": "hours"}, None, None),
    "knowledge_results": ("KnowledgeResultsPayload", {"query": "q", "passages": [{"text": "p", "scope": "s",
                                                                                   "source": "f.md"}]},
                          {"passages": []}, ("query", "other"), "payload.passages.clear()"),
    "outgoing_text": ("OutgoingTextPayload", {"text": "  Bye  ", "is_voice": False}, {"text": "Bye"},
                      ("is_voice", True), None),
}
OBSERVE_ONLY = {"turn_started", "turn_finished"}

HEADER = """import asyncio
import time

from rasa.mantle.hooks import *  # noqa: F401,F403 - every decorator, payload and signal
"""


def modify_ways(point, cls, change, readonly, inplace):
    """(way, body lines, def keyword) for a modify hook of `point`."""
    ways = [
        ("returns-unchanged", "return payload"),
        ("raises", 'raise ValueError("boom")'),
        ("times-out", "await asyncio.sleep(2)\n    return payload"),
        ("retry-model", 'raise RetryModel("try again")'),
        ("hook-rejection", 'raise HookRejection("no", response_message="utter_no")'),
        ("writes-identity", 'return payload.model_copy(update={"sender_id": "intruder"})'),
        ("assigns-frozen", f"payload.{next(iter(change))} = {next(iter(change.values()))!r}\n    return payload"),
        ("returns-dict", "return payload.model_dump()"),
        ("returns-none", "return None"),
        ("blocks-loop", "time.sleep(0.5)\n    return payload"),
    ]
    ways.append(("returns-changed", f"return payload.model_copy(update={change!r})"))
    if readonly:
        ways.append(("writes-read-only", f"return payload.model_copy(update={{{readonly[0]!r}: {readonly[1]!r}}})"))
    if inplace:
        ways.append(("mutates-in-place", f"{inplace}\n    return payload"))
        ways.append(("mutates-in-place-returns-none", f"{inplace}\n    return None"))
    out = [(w, body, "async def") for w, body in ways]
    out.append(("not-async", "return payload", "def"))
    return out


OBSERVE_WAYS = [
    ("returns-none", "return None"),
    ("raises", 'raise ValueError("boom")'),
    ("times-out", "await asyncio.sleep(2)"),
    ("retry-model", 'raise RetryModel("try again")'),
    ("returns-value", "return payload"),
]


def hook_source(decorator, name, cls, body, keyword="async def", lane="modify"):
    ret = cls if lane == "modify" else "None"
    return f"\n\n@{decorator}(timeout_ms={TIMEOUT_MS})\n{keyword} {name}(payload: {cls}) -> {ret}:\n    {body}\n"


def single_cases():
    cases = []
    for point, (cls, fields, change, readonly, inplace) in POINTS.items():
        payload = {**fields, **IDENTITY}
        if point not in OBSERVE_ONLY:
            for way, body, keyword in modify_ways(point, cls, change, readonly, inplace):
                src = HEADER + hook_source(f"modify_{point}", "hook", cls, body, keyword)
                cases.append((f"{point}--modify--{way}", {"hooks.py": src}, point, payload,
                              [{"file": "hooks.py", "handler": "hook", "lane": "modify"}]))
        for way, body in OBSERVE_WAYS:
            src = HEADER + hook_source(f"on_{point}", "watch", cls, body, lane="observe")
            cases.append((f"{point}--observe--{way}", {"hooks.py": src}, point, payload,
                          [{"file": "hooks.py", "handler": "watch", "lane": "observe"}]))
    return cases


def combination_cases():
    cls, fields, change, _, _ = POINTS["tool_call"]
    payload = {**fields, **IDENTITY}
    modify = hook_source("modify_tool_call", "rewrite", cls, f"return payload.model_copy(update={change!r})")
    other = hook_source("modify_tool_call", "second", cls, "return payload")
    observe_raises = hook_source("on_tool_call", "audit", cls, 'raise ValueError("observer fails")', lane="observe")
    call = lambda f, h, lane: {"file": f, "handler": h, "lane": lane}  # noqa: E731
    return [
        ("combo--two-modify-in-hooks-py", {"hooks.py": HEADER + modify + other}, "tool_call", payload, []),
        ("combo--two-modify-hooks-py-and-dir", {"hooks.py": HEADER + modify, "hooks/more.py": HEADER + other},
         "tool_call", payload, []),
        ("combo--observe-beside-modify", {"hooks.py": HEADER + modify + observe_raises}, "tool_call", payload,
         [call("hooks.py", "rewrite", "modify"), call("hooks.py", "audit", "observe")]),
        ("combo--hooks-py-and-dir", {"hooks.py": HEADER + modify, "hooks/audit.py": HEADER + observe_raises},
         "tool_call", payload, [call("hooks.py", "rewrite", "modify"), call("hooks/audit.py", "audit", "observe")]),
        ("combo--imported-hook-registers-once",
         {"hooks/a.py": HEADER + modify, "hooks/b.py": "from hooks.a import rewrite  # noqa: F401\n"},
         "tool_call", payload, [call("hooks/a.py", "rewrite", "modify")]),
    ]


def write_cases(cases):
    shutil.rmtree(CORPUS / "cases", ignore_errors=True)
    for name, files, point, payload, calls in cases:
        root = CORPUS / "cases" / name
        for rel, text in files.items():
            (root / rel).parent.mkdir(parents=True, exist_ok=True)
            (root / rel).write_text(textwrap.dedent(text).lstrip("\n"), encoding="utf-8")
        (root / "case.json").write_text(json.dumps({"point": point, "payload": payload, "calls": calls}, indent=2) + "\n")


async def record_case(root: Path):
    from structlog.testing import capture_logs

    from rasa.mantle.hooks import payloads as payload_models
    from rasa.mantle.hooks.exceptions import DuplicateModifierError, HookExecutionError, HookLoadingError
    from rasa.mantle.hooks.loader import load_hooks
    from rasa.mantle.hooks.points import spec_for_point
    from rasa.mantle.hooks.runner import run_modify, run_observers

    case = json.loads((root / "case.json").read_text())
    point = case["point"]
    try:
        registry = load_hooks(root)
    except (DuplicateModifierError, HookLoadingError) as e:
        return {"registry": {"error": type(e).__name__}}
    out = {"registry": {"modifiers": registry.modifier_count, "observers": registry.observer_count}}
    cls = getattr(payload_models, spec_for_point(point).payload_type.__name__)
    payload = cls.model_validate(case["payload"])
    with capture_logs() as logs:
        task = run_observers(registry, point, payload)
        if task is not None:
            await task
        if registry.modifier(point) is not None:
            try:
                result = await run_modify(registry, point, payload)
                out["modify"] = {
                    "outcome": result.outcome,
                    "failClosed": False,
                    "controlFlow": type(result.control_flow).__name__ if result.control_flow else None,
                    "payload": result.payload.model_dump(mode="json"),
                }
            except HookExecutionError:
                out["modify"] = {"outcome": None, "failClosed": True, "controlFlow": None, "payload": None}
    executions = [e for e in logs if e.get("event") == "mantle.hooks.execution"]
    out["executions"] = {f'{e["lane"]}:{e["hook_name"]}': e["outcome"] for e in executions}
    if "modify" in out and out["modify"]["outcome"] is None:
        out["modify"]["outcome"] = out["executions"].get(f'modify:{registry.modifier(point).func.__name__}')
    return out


async def record(names):
    recorded_path = CORPUS / "recorded.json"
    recorded = json.loads(recorded_path.read_text()) if names and recorded_path.exists() else {}
    for root in sorted((CORPUS / "cases").iterdir()):
        if names and root.name not in names:
            continue
        recorded[root.name] = await record_case(root)
    import importlib.metadata as md

    recorded["$engine"] = {"rasa-pro": md.version("rasa-pro"), "timeoutMs": TIMEOUT_MS}
    recorded_path.write_text(json.dumps(dict(sorted(recorded.items())), indent=2) + "\n")
    print(f"recorded {len(recorded) - 1} cases → {recorded_path.relative_to(ROOT)}", file=sys.stderr)


if __name__ == "__main__":
    os.environ.setdefault("RASA_TELEMETRY_ENABLED", "false")
    only = sys.argv[1:]
    if not only:
        write_cases(single_cases() + combination_cases())
    asyncio.run(record(only))
