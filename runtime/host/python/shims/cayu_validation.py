"""Shim of ``cayu._validation``: the small text and JSON checks hook code borrows from Cayu,
with the real ones' rules (portable durable JSON: _hooksmith_host/durable_json.py). Anything else of the module is out of the shim's scope."""
from typing import Any, Dict

from _hooksmith_host import durable_json
from _hooksmith_host.shim_scope import missing_name

__hooksmith_shim__ = True


DurableValueError = durable_json.DurableValueError


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
    return durable_json.copy_json(value, field_name)


def copy_json_object(value: Any, field_name: str) -> Dict[str, Any]:
    copied = copy_json_value(value, field_name)
    if type(copied) is not dict:
        raise ValueError(f"`{field_name}` must be a JSON object.")
    return copied


def copy_durable_json_value(value: Any, field_name: str) -> Any:
    return durable_json.copy_durable(value, field_name)


def copy_durable_json_object(value: Any, field_name: str) -> Dict[str, Any]:
    copied = copy_durable_json_value(value, field_name)
    if type(copied) is not dict:
        raise DurableValueError("invalid_json_object", field_name)
    return copied


__getattr__ = missing_name(__name__)
