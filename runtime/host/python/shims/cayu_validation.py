"""Shim of ``cayu._validation``: the small text and JSON checks hook code borrows from Cayu,
with the real ones' messages. Anything else of the module is out of the shim's scope."""
import json
from typing import Any, Dict

from _hooksmith_host.shim_scope import missing_name

__hooksmith_shim__ = True


class DurableValueError(ValueError):
    """A value that is not portable durable JSON or text."""


def require_nonblank(value: str, field_name: str) -> str:
    if type(value) is not str or not value.strip():
        raise ValueError(f"`{field_name}` must not be blank.")
    return value


def require_clean_nonblank(value: str, field_name: str) -> str:
    value = require_nonblank(value, field_name)
    if value != value.strip():
        raise ValueError(f"`{field_name}` must not start or end with whitespace.")
    return value


def require_durable_text(value: str, field_name: str) -> str:
    if type(value) is not str:
        raise DurableValueError(f"`{field_name}` must be a string.")
    if "\x00" in value or any(0xD800 <= ord(c) <= 0xDFFF for c in value):
        raise DurableValueError(f"`{field_name}` must be portable text.")
    return value


def require_durable_clean_nonblank(value: str, field_name: str) -> str:
    return require_clean_nonblank(require_durable_text(value, field_name), field_name)


def copy_json_value(value: Any, field_name: str) -> Any:
    try:
        return json.loads(json.dumps(value, allow_nan=False))
    except (TypeError, ValueError) as e:
        raise ValueError(f"`{field_name}` must be JSON: {e}") from None


def copy_json_object(value: Any, field_name: str) -> Dict[str, Any]:
    copied = copy_json_value(value, field_name)
    if type(copied) is not dict:
        raise ValueError(f"`{field_name}` must be a JSON object.")
    return copied


def copy_durable_json_value(value: Any, field_name: str) -> Any:
    try:
        return copy_json_value(value, field_name)
    except ValueError as e:
        raise DurableValueError(str(e)) from None


def copy_durable_json_object(value: Any, field_name: str) -> Dict[str, Any]:
    copied = copy_durable_json_value(value, field_name)
    if type(copied) is not dict:
        raise DurableValueError(f"`{field_name}` must be a JSON object.")
    return copied


__getattr__ = missing_name(__name__)
