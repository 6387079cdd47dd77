"""Turns Python values and exceptions into JSON for the protocol."""
import importlib
import json
import os
import re
import traceback
from typing import Any, Dict, Optional, Tuple

_PKG_DIR = os.path.dirname(os.path.abspath(__file__))
_HOST_DIR = os.path.dirname(_PKG_DIR)
_IMPORTLIB_DIR = os.path.dirname(os.path.abspath(importlib.__file__))
MAX_VALUE_CHARS = 64 * 1024 * 1024  # a returned value's JSON beyond this is truncated (JSON_LIMITS.bytes)
MAX_MESSAGE_CHARS = 64 * 1024
MAX_FORMATTED_CHARS = 256 * 1024
MAX_FRAMES = 120  # RecursionError has ~1000: keep the first 20 and the last 100


def _clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[:limit] + f"... ({len(text) - limit} more characters)"


def py_type(obj_or_cls: Any, is_class: bool = False) -> Dict[str, str]:
    cls = obj_or_cls if is_class else type(obj_or_cls)
    module = getattr(cls, "__module__", "builtins") or "builtins"
    qual = getattr(cls, "__qualname__", cls.__name__)
    return {"name": cls.__name__, "module": module, "qualname": f"{module}.{qual}"}


def _json_default(o: Any) -> Any:
    dump = getattr(o, "model_dump", None)
    if callable(dump):
        try:
            return dump(mode="json")
        except TypeError:
            return dump()
    if isinstance(o, (set, frozenset, tuple)):
        return list(o)
    raise TypeError(f"{type(o).__name__} is not JSON serialisable")


# Built before any user code runs: a hook rebinding json.dumps does not reach the host.
_ENCODER = json.JSONEncoder(default=_json_default, allow_nan=False, ensure_ascii=False)
_loads = json.JSONDecoder().decode


def to_json_text(value: Any) -> str:
    """Raises TypeError/ValueError (RecursionError when too deep) when value cannot be serialised."""
    return _ENCODER.encode(value)


def serialise(value: Any) -> Dict[str, Any]:
    """{value, valueType, unserialisable?, truncated?} for a returned value."""
    out: Dict[str, Any] = {"valueType": py_type(value)}
    try:
        dump = getattr(value, "model_dump", None)
        plain = dump(mode="json") if callable(dump) and not isinstance(value, type) else value
        text = to_json_text(plain)
    except Exception:
        try:
            text_repr = repr(value)
        except Exception as e:  # a hostile __repr__
            text_repr = f"<{type(value).__name__} (repr failed: {type(e).__name__})>"
        out["value"] = text_repr[:65536]
        out["unserialisable"] = True
        return out
    if len(text) > MAX_VALUE_CHARS:
        out["value"] = text[:MAX_VALUE_CHARS]
        out["truncated"] = True
        return out
    out["value"] = _loads(text)
    return out


def _is_host_file(filename: str) -> bool:
    return (filename.startswith(_HOST_DIR + os.sep) or filename.startswith("<frozen importlib")
            or filename.startswith(_IMPORTLIB_DIR + os.sep))


def _user_tb(tb):
    """Skips the host's own frames (and importlib's) at the start of a traceback."""
    while tb is not None and _is_host_file(tb.tb_frame.f_code.co_filename):
        tb = tb.tb_next
    return tb


def describe_exception(exc: BaseException, signals: Optional[Tuple[Tuple[str, type], ...]] = None) -> Dict[str, Any]:
    tb = _user_tb(exc.__traceback__)
    frames = []
    for fs in traceback.extract_tb(tb) if tb is not None else []:
        if _is_host_file(fs.filename):
            continue
        frames.append({"file": fs.filename, "line": fs.lineno or 0, "function": fs.name, "text": _clip(fs.line or "", 1000)})
    if len(frames) > MAX_FRAMES:
        frames = frames[:20] + frames[-(MAX_FRAMES - 20):]
    try:
        formatted = _clip("".join(traceback.format_exception(type(exc), exc, tb)), MAX_FORMATTED_CHARS)
    except Exception:
        formatted = f"{type(exc).__name__}: <unprintable>"
    try:
        message = _clip(str(exc), MAX_MESSAGE_CHARS)
    except Exception:
        message = "<unprintable message>"
    out: Dict[str, Any] = {
        "type": py_type(exc),
        "message": message,
        "signal": None,
        "baseException": not isinstance(exc, Exception),
        "traceback": frames,
        "formatted": formatted,
    }
    for attr, key in (("feedback", "feedback"), ("reason", "reason"), ("response_message", "responseMessage")):
        v = getattr(exc, attr, None) if attr in getattr(exc, "__dict__", {}) or hasattr(type(exc), attr) else None
        if isinstance(v, str):
            out[key] = _clip(v, MAX_MESSAGE_CHARS)
    for name, cls in signals or ():
        if isinstance(cls, type) and isinstance(exc, cls):
            out["signal"] = name
            break
    if isinstance(exc, SyntaxError):
        out["syntax"] = {"file": exc.filename or "", "line": exc.lineno or 0, "column": exc.offset or 0, "text": (exc.text or "").rstrip("\n")}
    return out


def request_id(line: bytes) -> Any:
    """The id of a request line too broken to decode, so that its error answers it."""
    m = re.match(rb'\s*\{"id":\s*(\d+)', line)
    return int(m.group(1)) if m else None
