"""Shim of ``cayu.core.events``: ``Event`` and ``EventType`` as a hook reads them from its context
(``terminal_event``, ``tool_event``). Only the event types a hook phase can see are listed."""
import enum
import sys
from typing import Any

from _hooksmith_host.shim_model import ShimField, ShimModel
from _hooksmith_host.shim_scope import missing_name

__hooksmith_shim__ = True

_Base: Any = enum.StrEnum if sys.version_info >= (3, 11) else type("_StrEnum", (str, enum.Enum), {
    "__str__": lambda self: str(self.value)})

EventType = _Base("EventType", {
    "SESSION_STARTED": "session.started",
    "SESSION_COMPLETED": "session.completed",
    "SESSION_FAILED": "session.failed",
    "SESSION_INTERRUPTED": "session.interrupted",
    "TOOL_STARTED": "tool.started",
    "TOOL_COMPLETED": "tool.completed",
    "TOOL_FAILED": "tool.failed",
    "CUSTOM": "custom",
})
EventType.__module__ = __name__


class Event(ShimModel):
    """One runtime event: its type, the session it belongs to, and its payload."""

    model_fields = {
        "id": ShimField("id", "str | None", None),
        "type": ShimField("type", "str"),
        "session_id": ShimField("session_id", "str | None", None),
        "payload": ShimField("payload", "dict", {}),
    }


Event.__module__ = __name__
__all__ = ["Event", "EventType"]
__getattr__ = missing_name(__name__)
