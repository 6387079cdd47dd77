"""Cayu's portable JSON rules, for the shim (cayu 0.3.0 ``cayu/_validation.py``: integers within
signed 64 bits, :27-28 and :960-963; finite floats, integral ones in that range too, :964-980;
lists and dicts only -- a tuple is not JSON, :981-1002; string keys, :1014). ``copy_json`` is the
looser copy (``_copy_json_value``, :1071): any int, but still no tuple and no NaN."""
import math
from typing import Any

MIN_INT = -(2**63)
MAX_INT = 2**63 - 1
MAX_NESTING = 100


class DurableValueError(ValueError):
    """A value that is not portable durable JSON (the real one carries a code and a path)."""

    def __init__(self, code: str, field_name: str, path: str = "$"):
        super().__init__(f"`{field_name}` is not portable durable JSON: {code} at {path}")
        self.code, self.field_name, self.path = code, field_name, path


def copy_durable(value: Any, field_name: str, path: str = "$", depth: int = 0) -> Any:
    if value is None or type(value) is bool:
        return value
    if type(value) is str:
        if "\x00" in value or any(0xD800 <= ord(c) <= 0xDFFF for c in value):
            raise DurableValueError("invalid_text", field_name, path)
        return value
    if type(value) is int:
        if MIN_INT <= value <= MAX_INT:
            return value
        raise DurableValueError("integer_out_of_range", field_name, path)
    if type(value) is float:
        if not math.isfinite(value):
            raise DurableValueError("non_finite_number", field_name, path)
        if value.is_integer() and not MIN_INT <= value <= MAX_INT:
            raise DurableValueError("integral_float_out_of_range", field_name, path)
        return int(value) if value.is_integer() else value
    if type(value) in (list, dict):
        if depth + 1 > MAX_NESTING:
            raise DurableValueError("nesting_too_deep", field_name, path)
        if type(value) is list:
            return [copy_durable(v, field_name, f"{path}/{i}", depth + 1) for i, v in enumerate(value)]
        out = {}
        for i, (k, v) in enumerate(value.items()):
            if type(k) is not str:
                raise DurableValueError("invalid_json_key", field_name, f"{path}/#{i}/key")
            out[k] = copy_durable(v, field_name, f"{path}/#{i}", depth + 1)
        return out
    raise DurableValueError("invalid_json_value", field_name, path)


def copy_json(value: Any, field_name: str) -> Any:
    if value is None or type(value) in (str, bool, int):
        return value
    if type(value) is float:
        if math.isfinite(value):
            return value
        raise ValueError(f"`{field_name}` must contain finite JSON numbers.")
    if type(value) is list:
        return [copy_json(v, f"{field_name}[{i}]") for i, v in enumerate(value)]
    if type(value) is dict:
        out = {}
        for k, v in value.items():
            if type(k) is not str:
                raise ValueError(f"`{field_name}` JSON object keys must be strings.")
            out[k] = copy_json(v, f"{field_name}.{k}")
        return out
    raise ValueError(f"`{field_name}` must contain JSON-compatible values.")
