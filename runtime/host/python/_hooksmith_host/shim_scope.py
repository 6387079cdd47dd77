"""What the Cayu shims cover, in one place: the public modules served, the names each
re-exporting namespace carries (as the real package's ``__init__`` files do), and the
ImportError for everything else, which says how to get the real package."""
import dis
import sys
from typing import Callable, Dict, List

HOOK_API = [
    "RuntimeHook", "RuntimeHookPhase", "RuntimeHookContext", "BeforeToolCallHookContext",
    "ToolCallHookContext", "BeforeToolCallDecision", "AfterToolCallDecision",
]

# namespace -> {module defining the names: names}
REEXPORTS: Dict[str, Dict[str, List[str]]] = {
    "cayu": {"cayu.runtime.hooks": HOOK_API, "cayu.core.tools": ["ToolResult"],
             "cayu.core.events": ["Event", "EventType"]},
    "cayu.runtime": {"cayu.runtime.hooks": HOOK_API},
    "cayu.core": {"cayu.core.tools": ["ToolResult"], "cayu.core.events": ["Event", "EventType"]},
    # The documented namespace of the hooks page (the real package keeps the API in cayu.runtime).
    "cayu.observability": {"cayu.runtime.hooks": HOOK_API + ["ToolResult"]},
    "cayu.observability.hooks": {"cayu.runtime.hooks": HOOK_API + ["ToolResult"]},
}

INSTALL_HINT = ("install the real package in the interpreter Hooksmith uses (pip install cayu), "
                "or select that interpreter")


def out_of_scope(what: str) -> str:
    return f"{what} is not provided by Hooksmith's shim of cayu (it covers the hook API only); {INSTALL_HINT}"


def missing_name(module: str) -> Callable[[str], object]:
    """A module ``__getattr__``: ``from <module> import X`` of a name the shim lacks raises an ImportError
    that explains itself; ``getattr(module, X, default)`` and ``hasattr`` still see an AttributeError."""

    def __getattr__(name: str) -> object:
        message = out_of_scope(f"{module}.{name}")
        if not name.startswith("__") and _importing_from(sys._getframe(1)):
            raise ImportError(message, name=module)
        raise AttributeError(message)

    return __getattr__


_IMPORT_FROM = dis.opmap["IMPORT_FROM"]


def _importing_from(frame) -> bool:
    """Whether the caller is executing ``from m import name`` (its current instruction)."""
    try:
        return frame is not None and frame.f_code.co_code[frame.f_lasti] == _IMPORT_FROM
    except (IndexError, AttributeError):
        return False
