"""Shim of a public namespace that re-exports the Cayu hook API: ``cayu``, ``cayu.runtime``, and the
documented ``cayu.observability`` / ``cayu.observability.hooks``. Which names each one carries is
in shim_scope.REEXPORTS; any other name raises an ImportError that says how to get the real one."""
import importlib

from _hooksmith_host.shim_scope import REEXPORTS, missing_name

__hooksmith_shim__ = True

__all__ = []
for _module, _names in REEXPORTS.get(__name__, {}).items():
    _source = importlib.import_module(_module)
    for _n in _names:
        globals()[_n] = getattr(_source, _n)
        __all__.append(_n)

__getattr__ = missing_name(__name__)
