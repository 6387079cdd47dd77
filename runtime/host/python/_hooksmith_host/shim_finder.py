"""Serves the API shims only where the real modules cannot be imported.

The finder sits at the END of sys.meta_path, so Python asks it only after every real
finder failed for that exact name: an installed ``rasa`` without ``mantle`` keeps its
own ``rasa`` and gets only ``rasa.mantle`` / ``rasa.mantle.hooks`` from here. Nothing
else of the ``rasa`` or ``cayu`` packages is ever shadowed.
"""
import importlib.abc
import importlib.machinery
import importlib.util
import os
import sys
from typing import Optional

from _hooksmith_host import shim_scope

SHIM_DIR = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "shims")

# name -> (shim file or None for an empty package, is_package); the Cayu modules are the selected
# line's (shim_scope.served): a namespace without a file of its own re-exports (cayu_reexport.py).
SHIMS = {
    "rasa": (None, True),
    "rasa.mantle": (None, True),
    "rasa.mantle.hooks": ("rasa_mantle_hooks.py", False),
    **{name: (shim_scope.DEFINING.get(name, "cayu_reexport.py"), package)
       for name, package in shim_scope.served().items()},
}


class _OutOfScopeLoader(importlib.abc.Loader):
    """A ``cayu`` submodule the shim does not provide: importing it says so, and how to get it."""

    def create_module(self, spec):
        return None

    def exec_module(self, module) -> None:
        # ModuleNotFoundError named after the module: ``from cayu import X`` then falls back to the
        # package's __getattr__, which names X; ``import cayu.X`` gets this message.
        raise ModuleNotFoundError(shim_scope.out_of_scope(module.__name__), name=module.__name__)


class _EmptyPackageLoader(importlib.abc.Loader):
    def create_module(self, spec):  # default module creation
        return None

    def exec_module(self, module) -> None:
        module.__hooksmith_shim__ = True


class ShimFinder(importlib.abc.MetaPathFinder):
    def find_spec(self, fullname: str, path, target=None) -> Optional[importlib.machinery.ModuleSpec]:
        entry = SHIMS.get(fullname)
        if entry is None:
            # Under the shim's own cayu, a submodule it lacks explains itself; a real cayu's stands.
            if fullname.startswith("cayu.") and _shim_cayu():
                return importlib.machinery.ModuleSpec(fullname, _OutOfScopeLoader())
            return None
        file, is_package = entry
        if file is None:
            spec = importlib.machinery.ModuleSpec(fullname, _EmptyPackageLoader(), is_package=True)
            spec.submodule_search_locations = []
            return spec
        return importlib.util.spec_from_file_location(
            fullname, os.path.join(SHIM_DIR, file), submodule_search_locations=[] if is_package else None
        )


def _shim_cayu() -> bool:
    parent = sys.modules.get("cayu")
    return parent is not None and not is_real(parent)


def install() -> None:
    if not any(isinstance(f, ShimFinder) for f in sys.meta_path):
        sys.meta_path.append(ShimFinder())


def is_real(module) -> bool:
    return not getattr(module, "__hooksmith_shim__", False)


def real(path: str) -> bool:
    """Whether a module exists on sys.path without the shim (found, not executed)."""
    parts = path.split(".")
    search = None
    for i in range(len(parts)):
        spec = importlib.machinery.PathFinder.find_spec(".".join(parts[: i + 1]), search)
        if spec is None:
            return False
        search = spec.submodule_search_locations
        if search is None and i < len(parts) - 1:
            return False
    return True
