"""Imports hook modules the way the engine does: once per app. A new app (a scenario, a payload
case: one start of the engine) imports the agent's modules afresh, so a module global never
carries one case's state into the next; the later calls of the app reuse them."""
import importlib
import importlib.util
import os
import sys
import zlib
from typing import Dict, Optional, Tuple


def _under(path: Optional[str], root: str) -> bool:
    return bool(path) and (path == root or path.startswith(root + os.sep))  # type: ignore[union-attr]


def module_name_for(root: str, path: str) -> Optional[str]:
    """`hooks/redact_pii.py` -> `hooks.redact_pii`; `hooks.py` -> `hooks`; None when not importable so."""
    rel = os.path.relpath(path, root)
    if rel.startswith("..") or not rel.endswith(".py"):
        return None
    parts = rel[:-3].split(os.sep)
    if parts[-1] == "__init__":
        parts.pop()
    if not parts or not all(p.isidentifier() for p in parts):
        return None
    return ".".join(parts)


class ModuleCache:
    def __init__(self) -> None:
        self.current_root: Optional[str] = None
        # An app has imported from current_root (False: the next call starts one).
        self.started = False
        self.by_path: Dict[str, object] = {}
        # (agent root, file) as asked -> (real root, real path, module name), for the run's later calls
        self._named: Dict[Tuple[str, str], Tuple[str, str, str]] = {}

    def plan(self, agent_root: str, file: str, same_app: bool = False) -> Tuple[str, str, str]:
        """Returns (module name, absolute path, 'cached' | 'fresh'); switches root and purges as needed.
        same_app: a later call of an app whose first call imported the agent; the engine loads an
        agent's modules once per app, so its files (and their real paths) are not looked at again
        until the next app."""
        named = self._named.get((agent_root, file)) if same_app and self.started else None
        if named is None:
            root = os.path.realpath(agent_root)
            path = os.path.realpath(file if os.path.isabs(file) else os.path.join(root, file))
            name = module_name_for(root, path) or "_hooksmith_file_%08x" % zlib.crc32(path.encode())
            named = root, path, name
        root, path, name = named
        if root != self.current_root:
            self._switch_root(root)
        if not (same_app and self.started):
            # A new app: what an earlier app imported from the agent is gone, as in a fresh process.
            self._named.clear()
            self._purge(root)
            self.started = True
        self._named[(agent_root, file)] = named
        mod = self.by_path.get(path)
        if mod is not None and sys.modules.get(name) is mod:
            return name, path, "cached"
        return name, path, "fresh"

    def load(self, name: str, path: str):
        """Imports the module; raises what the import raised."""
        if not os.path.isfile(path):
            raise FileNotFoundError(f"hook module not found: {path}")
        mod = None
        if not name.startswith("_hooksmith_file_"):
            try:
                mod = importlib.import_module(name)
            except ModuleNotFoundError as e:
                # hooks.py beside hooks/ (no __init__): `hooks` is the file, so load hooks/x.py by path.
                if e.name is None or not name.startswith(e.name):
                    raise
                mod = None
            if mod is not None and os.path.realpath(getattr(mod, "__file__", "") or "") != path:
                mod = None
        if mod is None:
            mod = self._load_by_path(name, path)
        self.by_path[path] = mod
        return mod

    @staticmethod
    def _load_by_path(name: str, path: str):
        spec = importlib.util.spec_from_file_location(name, path)
        if spec is None or spec.loader is None:
            raise ImportError(f"cannot load {path}")
        mod = importlib.util.module_from_spec(spec)
        sys.modules[name] = mod
        try:
            spec.loader.exec_module(mod)
        except BaseException:
            sys.modules.pop(name, None)
            raise
        return mod

    def forget(self) -> None:
        """After a failed import: the next call switches to its root afresh (its sys.path entry, which the
        case baseline taken before the import lacks, and a clean import of its modules)."""
        old = self.current_root
        if old is not None:
            self._purge(old)
            while old in sys.path:
                sys.path.remove(old)
        self.current_root = None
        self.started = False

    def _switch_root(self, root: str) -> None:
        old = self.current_root
        if old is not None:
            self._purge(old)
            while old in sys.path:
                sys.path.remove(old)
        sys.path.insert(0, root)
        self.current_root = root
        try:
            os.chdir(root)  # hooks that open relative paths see the agent root, as under the engine
        except OSError:
            pass
        self.started = False

    def _purge(self, root: str) -> None:
        for name, mod in list(sys.modules.items()):
            if mod is None:
                continue
            file = getattr(mod, "__file__", None)
            paths = getattr(mod, "__path__", None)
            hit = _under(os.path.realpath(file), root) if file else False
            if not hit and paths is not None and file is None:
                try:
                    hit = any(_under(os.path.realpath(p), root) for p in list(paths))
                except Exception:
                    hit = False
            if hit or name.startswith("_hooksmith_file_"):
                del sys.modules[name]
        self.by_path.clear()
        importlib.invalidate_caches()
