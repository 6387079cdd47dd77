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


class ChannelInfo(ShimModel):
    """Channel name and front-end metadata (engine-owned identity)."""

    model_fields = {"name": ShimField("name", "str"), "metadata": ShimField("metadata", "dict", {})}


ChannelInfo.__module__ = _MODULE
register_model(ChannelInfo)


def _channel(value: Any) -> Any:
    if isinstance(value, ChannelInfo):
        return value
    if isinstance(value, dict):
        return ChannelInfo(**value)
    raise TypeError("channel should be a ChannelInfo or a dict with a name")


def _payload_class(spec: dict) -> type:
    fields = []
    for f in spec["fields"]:
        default = MISSING if f["required"] else f["default"]
        convert = _channel if f["name"] == "channel" else None
        if f["name"] == "channel" and isinstance(default, dict):
            default = ChannelInfo(**default)
        fields.append(ShimField(f["name"], f["pythonType"], default, convert))
    return define_model(spec["name"], fields, _MODULE, spec.get("doc", ""))


class RetryModel(Exception):
    """Discard the current model response or tool call and steer the loop with ``feedback``."""

    def __init__(self, feedback: str = "", *args: Any, **kwargs: Any):
        if "feedback" in kwargs:
            feedback = kwargs.pop("feedback")
        super().__init__(feedback, *args)
        self.feedback = feedback

    def __str__(self) -> str:
        return str(self.feedback)


class HookRejection(Exception):
    """Veto this action with a ``reason``."""

    def __init__(self, reason: str = "", *args: Any, **kwargs: Any):
        if "reason" in kwargs:
            reason = kwargs.pop("reason")
        super().__init__(reason, *args)
        self.reason = reason

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
    + ["RetryModel", "HookRejection", "ChannelInfo", "ValidationError"]
)
del _spec, _d
