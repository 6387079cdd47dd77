"""Imports hook modules the way the engine does, caches them, and reloads an agent's
modules when any ``.py`` under its root changed since they were loaded."""
import importlib
import importlib.util
import os
import sys
import time
import zlib
from typing import Dict, Optional, Tuple

_SKIP_DIRS = {"__pycache__", "node_modules", "site-packages", "venv", "env", "dist", "build"}
_MAX_FILES = 5000


def _under(path: Optional[str], root: str) -> bool:
    return bool(path) and (path == root or path.startswith(root + os.sep))  # type: ignore[union-attr]


def tree_signature(root: str) -> int:
    """A cheap fingerprint of every .py under root: (path, mtime_ns, size)."""
    acc = 0
    count = 0
    stack = [root]
    while stack and count < _MAX_FILES:
        d = stack.pop()
        try:
            entries = list(os.scandir(d))
        except OSError:
            continue
        for e in entries:
            name = e.name
            try:
                if e.is_dir(follow_symlinks=False):
                    if name.startswith(".") or name in _SKIP_DIRS:
                        continue
                    stack.append(e.path)
                elif name.endswith(".py"):
                    st = e.stat()
                    acc = zlib.crc32(f"{e.path}\0{st.st_mtime_ns}\0{st.st_size}".encode(), acc)
                    count += 1
            except OSError:
                continue
    return acc ^ count


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
        self.signature: Optional[int] = None
        self.by_path: Dict[str, object] = {}
        self.last_scan_ms = 0.0
        # (agent root, file) as asked -> (real root, real path, module name), for the run's later calls
        self._named: Dict[Tuple[str, str], Tuple[str, str, str]] = {}

    def plan(self, agent_root: str, file: str, same_run: bool = False) -> Tuple[str, str, str]:
        """Returns (module name, absolute path, 'cached' | 'fresh' | 'reloaded'); switches root and purges as needed.
        same_run: a later call of a run whose first call looked at this root; the engine loads an
        agent's modules once, so its files (and their real paths) are not looked at again until
        the next run."""
        named = self._named.get((agent_root, file)) if same_run and self.signature is not None else None
        if named is None:
            root = os.path.realpath(agent_root)
            path = os.path.realpath(file if os.path.isabs(file) else os.path.join(root, file))
            name = module_name_for(root, path) or "_hooksmith_file_%08x" % zlib.crc32(path.encode())
            named = root, path, name
        root, path, name = named
        if root != self.current_root:
            self._switch_root(root)
        kind = "fresh"
        if not (same_run and self.signature is not None):
            self._named.clear()
            t0 = time.perf_counter()
            sig = tree_signature(root)
            self.last_scan_ms = (time.perf_counter() - t0) * 1000.0
            if self.signature is not None and sig != self.signature:
                self._purge(root)
                kind = "reloaded"
            self.signature = sig
        self._named[(agent_root, file)] = named
        mod = self.by_path.get(path)
        if mod is not None and sys.modules.get(name) is mod:
            return name, path, "cached"
        return name, path, kind

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
        self.signature = None

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
        self.signature = None

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
