"""Shim of ``cayu.core.tools``: the ``ToolResult`` model hooks build and inspect. The rest of the
module (tools, specs, contexts) is out of the shim's scope."""
from _hooksmith_host.durable_json import copy_durable
from _hooksmith_host.shim_model import ShimField, ShimModel
from _hooksmith_host.shim_scope import missing_name

__hooksmith_shim__ = True


def _structured(value):
    return copy_durable(value, "structured")


def _artifacts(value):
    return copy_durable(value, "artifacts")


class ToolResult(ShimModel):
    """A tool's result: text content, optional structured data and artifacts, and an error flag.
    Frozen, its data copied as portable durable JSON at construction (cayu 0.3.0 core/tools.py:255-285)."""

    model_config = {"extra": "forbid", "frozen": True}
    model_fields = {
        "content": ShimField("content", "str", ""),
        "structured": ShimField("structured", "dict | None", None, _structured),  # a mapping or None
        "artifacts": ShimField("artifacts", "list", [], _artifacts),
        "is_error": ShimField("is_error", "bool", False),
    }


ToolResult.__module__ = __name__
__all__ = ["ToolResult"]
__getattr__ = missing_name(__name__)
