"""Shim of ``cayu`` / ``cayu.runtime.hooks``: re-exports the hook names of ``cayu.observability``
(real or shim), which real code may import from any of the three namespaces."""
from cayu.observability import *  # noqa: F401,F403
from cayu.observability import __all__  # noqa: F401

__hooksmith_shim__ = True
