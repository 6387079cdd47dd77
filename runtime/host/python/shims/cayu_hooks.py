"""Shim of the module where the real package defines the hook API (``cayu.runtime.hooks`` on cayu 0.3,
``cayu.observability.hooks`` on 0.9 and newer: shim_scope.HOOKS_MODULE; re-exported as that line does), served by
Hooksmith's host only when the real package cannot be imported.

Decisions enforce Cayu's validator rules: extra="forbid"; proceed_modified needs
modified_arguments, short_circuit needs synthetic_result, block needs a non-blank
block_reason, and each of those fields is valid with its own action only; modify
needs modified_result. Phases, actions and companions come from catalogue.json.
"""
import enum
import importlib
import sys
from typing import Any, Dict, List, Optional

from _hooksmith_host.catalogue import CAYU
from _hooksmith_host.durable_json import copy_durable
from _hooksmith_host.shim_model import ShimField, ShimModel, ValidationError
from _hooksmith_host.shim_scope import TOOL_RESULT_MODULE

ToolResult = importlib.import_module(TOOL_RESULT_MODULE).ToolResult

__hooksmith_shim__ = True
_MODULE = __name__

if sys.version_info >= (3, 11):
    _StrEnumBase: Any = enum.StrEnum
else:  # Python 3.9/3.10: a str-valued Enum whose str() is its value, like StrEnum.
    class _StrEnumBase(str, enum.Enum):
        def __str__(self) -> str:
            return str(self.value)

RuntimeHookPhase = _StrEnumBase("RuntimeHookPhase", {p["id"].upper(): p["id"] for p in CAYU["phases"]})
RuntimeHookPhase.__module__ = _MODULE


def _tool_result(value: Any) -> Any:
    if value is None or isinstance(value, ToolResult):
        return value
    if isinstance(value, dict):
        return ToolResult(**value)
    raise TypeError("Input should be a valid dictionary or instance of ToolResult")


def _durable_json(value: Any) -> Any:
    """Modified arguments are validated and copied as portable durable JSON at construction."""
    if value is None:
        return None
    if not isinstance(value, dict):
        raise TypeError("Input should be a valid dictionary")
    return copy_durable(value, "modified_arguments")


_DECISIONS = {d["name"]: d for d in CAYU["decisions"]}
_FIELD_TYPES = {"modified_arguments": ("dict", _durable_json), "synthetic_result": ("Any", _tool_result),
                "block_reason": ("str | None", None), "modified_result": ("Any", _tool_result)}


class _Decision(ShimModel):
    model_config = {"extra": "forbid"}
    _spec: Dict[str, Any] = {}

    def model_post_init(self, _context: Any) -> None:
        spec = type(self)._spec
        action = self.__dict__.get("action")
        actions = {a["action"]: a["companion"] for a in spec["actions"]}
        name = type(self).__name__
        if action not in actions:
            quoted = [repr(a) for a in actions]
            allowed = ", ".join(quoted[:-1]) + " or " + quoted[-1] if len(quoted) > 1 else quoted[0]
            raise ValidationError(name, [{"type": "literal_error", "loc": ("action",), "msg": f"Input should be {allowed}", "input": action}])
        companion = actions[action]
        errors = []
        for a, field in actions.items():
            if field is None:
                continue
            value = self.__dict__.get(field)
            if field == companion:
                if value is None or (field == "block_reason" and not str(value).strip()):
                    need = "a non-blank block_reason" if field == "block_reason" else field
                    errors.append({"type": "value_error", "loc": (), "msg": f"Value error, action {action!r} requires {need}", "input": self.__dict__})
            elif value is not None:
                errors.append({"type": "value_error", "loc": (), "msg": f"Value error, {field} is only valid with action {a!r}", "input": self.__dict__})
        if errors:
            raise ValidationError(name, errors)


def _decision_class(name: str) -> type:
    spec = _DECISIONS[name]
    fields = {"action": ShimField("action", "str")}
    for f in spec["fields"]:
        python_type, convert = _FIELD_TYPES.get(f, ("Any", None))
        fields[f] = ShimField(f, python_type, None, convert)
    return type(name, (_Decision,), {"model_fields": fields, "_spec": spec, "__module__": _MODULE})


BeforeToolCallDecision = _decision_class("BeforeToolCallDecision")
AfterToolCallDecision = _decision_class("AfterToolCallDecision")


class _HookActionContext:
    """Context base: read-only properties plus async actions recorded in ``actions``."""

    def __init__(self, *, hook_name: str, phase: Any, session: Any, execution_profile: Any = None,
                 runtime: Any = None, publication_actions_allowed: bool = True, **_ignored: Any):
        self._hook_name = hook_name
        self._phase = RuntimeHookPhase(phase)
        self._session = session
        self._execution_profile = execution_profile
        self._actions: List[Dict[str, Any]] = []
        self._runtime = runtime

    hook_name = property(lambda self: self._hook_name)
    phase = property(lambda self: self._phase)
    session = property(lambda self: self._session)
    execution_profile = property(lambda self: self._execution_profile)

    @property
    def actions(self) -> List[Dict[str, Any]]:
        return list(self._actions)

    def _record(self, method: str, args: tuple, kwargs: dict) -> None:
        self._actions.append({"method": method, "args": list(args), "kwargs": dict(kwargs)})

    async def fork_session(self, request: Any, *args: Any, **kwargs: Any) -> list:
        self._record("fork_session", (request,) + args, kwargs)
        return []

    async def dispatch(self, request: Any, *args: Any, **kwargs: Any) -> Any:
        self._record("dispatch", (request,) + args, kwargs)
        return _Fake(kind="DispatchHandle", id=f"dispatch-{len(self._actions)}")

    async def dispatch_inline(self, request: Any, *args: Any, **kwargs: Any) -> list:
        self._record("dispatch_inline", (request,) + args, kwargs)
        return []

    async def create_task(self, request: Any, *args: Any, **kwargs: Any) -> Any:
        self._record("create_task", (request,) + args, kwargs)
        return _Fake(kind="Task", id=f"task-{len(self._actions)}")

    async def emit_custom_event(self, event_type: str, *args: Any, session_id: Optional[str] = None,
                                payload: Optional[Dict[str, Any]] = None, **kwargs: Any) -> Any:
        kw = dict(kwargs)
        kw.update({"session_id": session_id, "payload": payload})
        self._record("emit_custom_event", (event_type,) + args, kw)
        return _Fake(kind="Event", type=event_type, session_id=session_id, payload=payload)


class _Fake:
    """A harmless stand-in for what a context action returns (Event, Task, DispatchHandle)."""

    def __init__(self, **fields: Any):
        self.__dict__.update(fields)

    def model_dump(self, **_kw: Any) -> Dict[str, Any]:
        return dict(self.__dict__)

    def __repr__(self) -> str:
        return f"{self.__dict__.get('kind', 'Fake')}({', '.join(f'{k}={v!r}' for k, v in self.__dict__.items() if k != 'kind')})"


class BeforeToolCallHookContext(_HookActionContext):
    """The before_tool_call view of a call. ``arguments`` is a read-only copy: mutating it is a no-op."""

    def __init__(self, *, tool_name: str, tool_call_id: str, arguments: Dict[str, Any],
                 task_id: Optional[str] = None, **kw: Any):
        super().__init__(**kw)
        self._tool_name, self._tool_call_id, self._arguments, self._task_id = tool_name, tool_call_id, arguments, task_id
        self._handed: List[Dict[str, Any]] = []  # the copies read (bounded): Hooksmith tells a lost mutation

    @property
    def arguments(self) -> Dict[str, Any]:
        # Each read is a fresh deep copy (cayu 0.3.0 runtime/hooks.py:344-346): a mutation is lost.
        copied = copy_durable(self._arguments, "arguments")
        if len(self._handed) < 64:
            self._handed.append(copied)
        return copied

    tool_name = property(lambda self: self._tool_name)
    tool_call_id = property(lambda self: self._tool_call_id)
    task_id = property(lambda self: self._task_id)


class ToolCallHookContext(BeforeToolCallHookContext):
    """The after_tool_call view of a call: identity, arguments and the result."""

    def __init__(self, *, result: Any, tool_event: Any = None, **kw: Any):
        super().__init__(**kw)
        self._result, self._tool_event = result, tool_event

    result = property(lambda self: self._result)
    tool_event = property(lambda self: self._tool_event)


class RuntimeHookContext(_HookActionContext):
    """The after_session_* view: the session and its terminal event."""

    def __init__(self, *, terminal_event: Any = None, **kw: Any):
        super().__init__(**kw)
        self._terminal_event = terminal_event

    terminal_event = property(lambda self: self._terminal_event)


for _cls in (_HookActionContext, _Fake, BeforeToolCallHookContext, ToolCallHookContext, RuntimeHookContext):
    _cls.__module__ = _MODULE


class RuntimeHook:
    """Base class of Cayu runtime hooks. A subclass takes part only in the phases it overrides."""

    @property
    def name(self) -> str:
        return type(self).__name__

    @property
    def execution_profile_identity(self) -> Any:
        return None

    async def before_tool_call(self, context: BeforeToolCallHookContext) -> Optional[BeforeToolCallDecision]:
        return None

    async def after_tool_call(self, context: ToolCallHookContext) -> Optional[AfterToolCallDecision]:
        return None

    async def after_session_completed(self, context: RuntimeHookContext) -> None:
        return None

    async def after_session_failed(self, context: RuntimeHookContext) -> None:
        return None

    async def after_session_interrupted(self, context: RuntimeHookContext) -> None:
        return None


RuntimeHook.__module__ = _MODULE

__all__ = [
    "RuntimeHook", "RuntimeHookPhase", "ToolResult", "BeforeToolCallDecision", "AfterToolCallDecision",
    "BeforeToolCallHookContext", "ToolCallHookContext", "RuntimeHookContext", "ValidationError",
]
