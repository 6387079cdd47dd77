"""Shim of ``rasa.mantle.hooks``, served by Hooksmith's host only when the real module
cannot be imported. Names, fields and defaults come from catalogue.json (the catalogue).

Decorators must be called (``@on_turn_started()``); they record the point, lane and
timeout on the function as ``fn.__hooksmith__`` and return it unchanged.
"""
from typing import Any, Callable, Optional

from _hooksmith_host.catalogue import MANTLE
from _hooksmith_host.shim_model import MISSING, ShimField, ShimModel, ValidationError, define_model, register_model

__hooksmith_shim__ = True
_MODULE = __name__


# rasa-pro 3.21 (rasa/mantle/hooks/payloads.py): every model is frozen; CallInfo and ChannelInfo
# default to empty ones; payload classes derive from HookPayload (the identity fields).
_FROZEN = {"frozen": True}


class ChannelInfo(ShimModel):
    """Channel identity and front-end metadata."""

    model_config = _FROZEN
    model_fields = {"name": ShimField("name", "str | None", None), "metadata": ShimField("metadata", "dict", {})}


class CallInfo(ShimModel):
    """Telephony / session identity, when present."""

    model_config = _FROZEN
    model_fields = {"phone_number": ShimField("phone_number", "str | None", None), "metadata": ShimField("metadata", "dict", {})}


for _model in (ChannelInfo, CallInfo):
    _model.__module__ = _MODULE
    register_model(_model)


def _channel(value: Any) -> Any:
    if isinstance(value, ChannelInfo):
        return value
    if isinstance(value, dict):
        return ChannelInfo(**value)
    raise TypeError("channel should be a ChannelInfo or a dict with a name")


def _call(value: Any) -> Any:
    if isinstance(value, CallInfo):
        return value
    if value is None:  # older payload files write null: the engine's CallInfo is never None
        return CallInfo()
    if isinstance(value, dict):
        return CallInfo(**value)
    raise TypeError("call should be a CallInfo or a dict")


_CONVERT = {"channel": (_channel, ChannelInfo), "call": (_call, CallInfo)}


def _shim_field(f: dict) -> ShimField:
    default = MISSING if f["required"] else f["default"]
    convert, model = _CONVERT.get(f["name"], (None, None))
    if model is not None and isinstance(default, dict):
        default = model(**default)
    return ShimField(f["name"], f["pythonType"], default, convert)


_IDENTITY = ("sender_id", "call", "channel")


def _hook_payload() -> type:
    spec = MANTLE["payloads"][0]
    fields = [_shim_field(f) for f in spec["fields"] if f["name"] in _IDENTITY]
    return define_model("HookPayload", fields, _MODULE, "Identity carried by every payload. Engine-owned fields are read-only.", config=_FROZEN)


HookPayload = _hook_payload()


def _payload_class(spec: dict) -> type:
    fields = [_shim_field(f) for f in spec["fields"]]
    return define_model(spec["name"], fields, _MODULE, spec.get("doc", ""), base=HookPayload, config=_FROZEN)


class HookControlFlow(Exception):
    """Intentional signal from a modify hook. Not a bug."""


class RetryModel(HookControlFlow):
    """Discard the current model response or tool call and steer the loop with ``feedback``."""

    def __init__(self, feedback: str = "", *args: Any, **kwargs: Any):
        if "feedback" in kwargs:
            feedback = kwargs.pop("feedback")
        super().__init__(feedback, *args)
        self.feedback = feedback

    def __str__(self) -> str:
        return str(self.feedback)


class HookRejection(HookControlFlow):
    """Veto this action with a ``reason``."""

    def __init__(self, reason: str = "", response_message: Optional[str] = None, *args: Any, **kwargs: Any):
        if "reason" in kwargs:
            reason = kwargs.pop("reason")
        super().__init__(reason, *args)
        self.reason = reason
        self.response_message = response_message

    def __str__(self) -> str:
        return str(self.reason)


def _decorator(name: str, point: str, lane: str) -> Callable[..., Callable[[Callable], Callable]]:
    def factory(*args: Any, timeout_ms: Optional[int] = None) -> Callable[[Callable], Callable]:
        if args:
            # `@on_x` without parentheses hands us the function: the engine rejects that.
            raise TypeError(f"@{name} must be called: write @{name}() (parentheses are mandatory)")

        def register(fn: Callable) -> Callable:
            fn.__hooksmith__ = {"decorator": name, "point": point, "lane": lane, "timeoutMs": timeout_ms}
            return fn

        return register

    factory.__name__ = factory.__qualname__ = name
    factory.__module__ = _MODULE
    factory.__doc__ = f"Register an async {lane} hook for the {point.replace('_', ' ')} point."
    return factory


for _spec in MANTLE["payloads"]:
    globals()[_spec["name"]] = _payload_class(_spec)
for _d in MANTLE["decorators"]:
    globals()[_d["name"]] = _decorator(_d["name"], _d["point"], _d["lane"])
for _old, _new in MANTLE["aliases"].items():
    globals()[_old] = globals()[_new]

__all__ = (
    [d["name"] for d in MANTLE["decorators"]]
    + [p["name"] for p in MANTLE["payloads"]]
    + list(MANTLE["aliases"])
    + ["RetryModel", "HookRejection", "HookControlFlow", "HookPayload", "CallInfo", "ChannelInfo", "ValidationError"]
)
del _spec, _d
