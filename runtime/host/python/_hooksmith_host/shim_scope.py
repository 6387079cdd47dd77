"""What the Cayu shims cover, in one place: the public modules served, the names each
re-exporting namespace carries (as the real package's ``__init__`` files do), and the
ImportError for everything else, which says how to get the real package."""
import dis
import os
import sys
from typing import Callable, Dict, List

from _hooksmith_host.catalogue import CAYU

HOOK_API = [
    "RuntimeHook", "RuntimeHookPhase", "RuntimeHookContext", "BeforeToolCallHookContext",
    "ToolCallHookContext", "BeforeToolCallDecision", "AfterToolCallDecision",
]

# The Cayu line the host speaks (catalogue/cayu-lines.ts, HOOKSMITH_CAYU_LINE): the shim serves its
# modules only. No line (no cayu installed, none chosen): both layouts, the 0.3 modules defining.
_LINES = CAYU.get("lines", {})
LINE = _LINES.get(os.environ.get("HOOKSMITH_CAYU_LINE", ""))
HOOKS_MODULE = LINE["hooks"] if LINE else "cayu.runtime.hooks"
TOOL_RESULT_MODULE = LINE["toolResult"] if LINE else "cayu.core.tools"
EVENTS_MODULE = LINE["events"] if LINE else "cayu.core.events"
# Module -> the shim file defining it.
DEFINING = {HOOKS_MODULE: "cayu_hooks.py", TOOL_RESULT_MODULE: "cayu_core_tools.py",
            EVENTS_MODULE: "cayu_core_events.py", "cayu._validation": "cayu_validation.py"}


def _reexports() -> Dict[str, Dict[str, List[str]]]:
    """namespace -> {module defining the names: names}, as the real package's ``__init__`` files do."""
    out: Dict[str, Dict[str, List[str]]] = {}
    for line in [LINE] if LINE else list(_LINES.values()):
        for key, home, names in (("hookModules", HOOKS_MODULE, HOOK_API),
                                 ("toolResultModules", TOOL_RESULT_MODULE, ["ToolResult"]),
                                 ("eventsModules", EVENTS_MODULE, ["Event", "EventType"])):
            for module in line[key]:
                if module != home:
                    out.setdefault(module, {})[home] = names
        for module, names in line.get("partialHookModules", {}).items():
            served_names = out.setdefault(module, {}).setdefault(HOOKS_MODULE, [])
            served_names.extend(n for n in names if n not in served_names)
    if not LINE:
        # Without a line the documented namespace carries ToolResult too, as the seed documents.
        for module in ("cayu.observability", "cayu.observability.hooks"):
            out[module][HOOKS_MODULE] = HOOK_API + ["ToolResult"]
    return out


REEXPORTS = _reexports()


def served() -> Dict[str, bool]:
    """Every module the shim serves -> whether it is a package. Each one is: a submodule the line
    lacks (cayu.runtime.hooks under a line where cayu.runtime only re-exports) must reach the
    finder and say it is out of the shim's scope, not "'cayu.runtime' is not a package"."""
    names = set(DEFINING) | set(REEXPORTS)
    for n in list(names):
        parts = n.split(".")
        names.update(".".join(parts[:i]) for i in range(1, len(parts)))
    return {n: True for n in sorted(names)}

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
