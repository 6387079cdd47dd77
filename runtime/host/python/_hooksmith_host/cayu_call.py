"""Builds a Cayu phase context from the request's JSON and reads back what the hook did."""
import copy
import importlib
import json
import importlib.util
import os
from typing import Any, Dict, Optional

from .catalogue import CAYU
from .describe import to_json_text
from . import shim_scope
from .shim_finder import SHIM_DIR, is_real

_PHASES = {p["id"]: p for p in CAYU["phases"]}
_shim_module = None


class Record:
    """Attribute (and item) access over a JSON object: sessions, events."""

    def __init__(self, data: Dict[str, Any]):
        self.__dict__.update({k: (Record(v) if isinstance(v, dict) else v) for k, v in data.items()})

    def __getitem__(self, key: str) -> Any:
        return self.__dict__[key]

    def get(self, key: str, default: Any = None) -> Any:
        return self.__dict__.get(key, default)

    def __getattr__(self, name: str) -> Any:  # missing attributes read as None, like optional fields
        if name.startswith("__"):
            raise AttributeError(name)
        return None

    def model_dump(self, **_kw: Any) -> Dict[str, Any]:
        return {k: (v.model_dump() if isinstance(v, Record) else v) for k, v in self.__dict__.items()}

    def __repr__(self) -> str:
        return f"Record({self.model_dump()!r})"


def _shim():
    """The shim's context classes (used even under a real cayu: its contexts need a live runtime)."""
    global _shim_module
    obs = importlib.import_module(shim_scope.HOOKS_MODULE)
    if not is_real(obs):
        return obs
    if _shim_module is None:
        spec = importlib.util.spec_from_file_location("_hooksmith_cayu_shim", os.path.join(SHIM_DIR, "cayu_hooks.py"))
        mod = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(mod)
        _shim_module = mod
    return _shim_module


def phase_spec(phase: str) -> Optional[Dict[str, Any]]:
    return _PHASES.get(phase)


def build_context(phase: str, hook_name: str, data: Dict[str, Any]):
    """Returns (context, original arguments, arguments copy handed to the hook)."""
    spec = _PHASES[phase]
    shim = _shim()
    tool_result_cls = importlib.import_module(shim_scope.TOOL_RESULT_MODULE).ToolResult
    status = {"after_session_completed": "completed", "after_session_failed": "failed",
              "after_session_interrupted": "interrupted"}.get(phase, "running")
    session = Record(data.get("session") or {"id": "session-1", "status": status})
    common = {"hook_name": hook_name, "phase": phase, "session": session}
    ctx_name = spec["context"]
    original = data.get("arguments") or {}
    handed = copy.deepcopy(original)
    if ctx_name == "RuntimeHookContext":
        event = data.get("terminal_event") or {"type": f"session.{status}", "session_id": session.id}
        return shim.RuntimeHookContext(terminal_event=Record(event), **common), original, handed
    ids = {"tool_name": data.get("tool_name", "tool"), "tool_call_id": data.get("tool_call_id", "call-1"),
           "arguments": handed, "task_id": data.get("task_id")}
    if ctx_name == "BeforeToolCallHookContext":
        return shim.BeforeToolCallHookContext(**ids, **common), original, handed
    result = tool_result_cls.model_validate(data.get("result") or {})
    tool_event = Record(data.get("tool_event") or {"type": "tool.completed", "tool_call_id": ids["tool_call_id"]})
    return shim.ToolCallHookContext(result=result, tool_event=tool_event, **ids, **common), original, handed


def arguments_mutated(ctx, original: Dict[str, Any]) -> bool:
    """Whether the hook changed a copy of ``context.arguments`` it read (a mutation the runtime loses)."""
    return any(handed != original for handed in getattr(ctx, "_handed", ()))


def _jsonable(v: Any) -> Any:
    """An action argument as JSON (bounded), else its repr."""
    try:
        text = to_json_text(v)
        if len(text) <= 256 * 1024:
            return json.loads(text)
        return text[: 256 * 1024] + "... (truncated)"
    except Exception:
        try:
            return repr(v)[:65536]
        except Exception:
            return f"<{type(v).__name__}>"


def recorded_actions(ctx) -> list:
    return [{"method": a["method"], "args": [_jsonable(x) for x in a["args"]],
             "kwargs": {k: _jsonable(x) for k, x in a["kwargs"].items()}} for a in getattr(ctx, "_actions", [])]


def await_error(value) -> TypeError:
    """The TypeError `await value` raises for a value that is not awaitable (CPython's own text)."""
    async def awaiting():
        await value
    try:
        awaiting().send(None)
    except TypeError as e:
        return e
    return TypeError(f"object {type(value).__name__} can't be used in 'await' expression")
