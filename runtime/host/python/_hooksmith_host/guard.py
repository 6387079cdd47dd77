"""A hook shares the host's interpreter, so it can rebind what the host runs on
(``asyncio.wait = None``, ``json.dumps = ...``). The host keeps its own references, taken
before any user code runs (``take``), and after each call checks that the standard library
is as it was (``broken``): a changed host is restarted, so no later run sees the change."""
import asyncio
import asyncio.base_events
import asyncio.events
import asyncio.futures
import asyncio.tasks
import builtins
import contextvars
import copy
import importlib
import importlib.util
import io
import json
import json.decoder
import json.encoder
import operator
import os
import sys
import threading
import time
import traceback
from typing import List, Tuple

# Whole modules whose every callable a hook may lean on, and single names the host itself calls.
_WATCHED = (asyncio, asyncio.base_events, asyncio.events, asyncio.futures, asyncio.tasks, builtins,
            json, json.decoder, json.encoder)
_NAMES = {contextvars: ("ContextVar",), copy: ("deepcopy",), importlib: ("import_module", "invalidate_caches"),
          importlib.util: ("spec_from_file_location", "module_from_spec"), io: ("TextIOBase",),
          os: ("write", "read", "_exit", "getpid", "kill", "listdir", "dup2", "scandir", "fspath"),
          sys: ("_getframe", "_current_frames", "exc_info"), threading: ("Thread", "Lock", "Event", "get_ident"),
          time: ("perf_counter", "monotonic", "sleep"), traceback: ("extract_tb", "format_exception")}

# (owner, its dict, names, itemgetter of those names, the values then)
_snapshot: List[Tuple[object, dict, tuple, object, tuple]] = []
_is = operator.is_


def _watch(owner, label: str, only=None) -> None:
    d = vars(owner)
    names = tuple(k for k, v in list(d.items())
                  if callable(v) and not k.startswith("__") and (only is None or k in only))
    if names:
        get = operator.itemgetter(*names)
        values = get(d) if len(names) > 1 else (get(d),)
        _snapshot.append((label, d, names, get, values))


def take(loop) -> None:
    """Snapshots the callables of the modules and event-loop classes the host runs on (afresh)."""
    _snapshot.clear()
    for m in _WATCHED:
        _watch(m, m.__name__)
    for m, names in _NAMES.items():
        _watch(m, m.__name__, names)
    for cls in type(loop).__mro__[:-1]:
        _watch(cls, f"{cls.__module__}.{cls.__qualname__}")
    for cls in (json.JSONEncoder, json.JSONDecoder):
        _watch(cls, f"json.{cls.__name__}")


def broken() -> List[str]:
    """The watched names rebound or deleted since take(), as `module.name`; [] when intact."""
    out: List[str] = []
    for label, d, names, get, values in _snapshot:
        try:
            now = get(d) if len(names) > 1 else (get(d),)
        except KeyError:
            now = tuple(d.get(n) for n in names)
        if not all(map(_is, now, values)):
            out.extend(f"{label}.{n}" for n, a, b in zip(names, now, values) if a is not b)
    return out
