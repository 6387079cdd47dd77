"""What the user's interpreter has installed, read once and cached by environment.ts.

stdin: one request a line, {"modules": [dotted names], "engine": true|false}
stdout: one answer a line, in order, {"modules": {name: true|false}, "engine": {...} | null,
        "stamps": [[dir, mtime_ns], ...]}; the probe exits when its stdin closes. A check asks
        for the engine as it starts and for its imports once parsed: one interpreter start.

Modules are resolved the way the import system finds them (every finder on sys.meta_path, parent
packages' search paths), without executing any of them. Only for "engine" are the real
``rasa.mantle.hooks`` / ``cayu.runtime.hooks`` imported (installed packages, never user code) to
read what they export. ``stamps`` are the sys.path folders with their mtimes: installing or
removing a package changes one, and the cached answer is then asked for again.
"""
import importlib
import importlib.util
import json
import os
import re
import sys
import threading
import time

sys.path.pop(0)  # this script's folder is not the user's environment


def resolve(name):
    if name in sys.modules:
        return True
    parts = name.split(".")
    search = None
    for i in range(len(parts)):
        full = ".".join(parts[: i + 1])
        if full in sys.modules:
            search = getattr(sys.modules[full], "__path__", None)
        else:
            spec = None
            for finder in sys.meta_path:
                find = getattr(finder, "find_spec", None)
                if find is None:
                    continue
                try:
                    spec = find(full, search)
                except Exception:
                    spec = None
                if spec is not None:
                    break
            if spec is None:
                return False
            search = spec.submodule_search_locations
        if search is None and i < len(parts) - 1:
            return False
    return True


_ENGINES = {"rasa": "rasa-pro", "cayu": "cayu"}
# The module defining the hook API on each Cayu line (0.3; 0.9 and newer).
CAYU_LAYOUT_MODULES = ("cayu.runtime.hooks", "cayu.observability.hooks")


def regular_package(name):
    """Found as a package with an __init__ (a bare folder of that name is a namespace package)."""
    try:
        spec = importlib.util.find_spec(name)
    except Exception:
        return False
    return spec is not None and spec.origin not in (None, "namespace")


def version(dist, module):
    if not regular_package(module):
        return None  # not installed: importlib.metadata (slow to import) is not needed
    try:
        import importlib.metadata

        return importlib.metadata.version(dist)
    except Exception:
        return None


def found(name):
    # The engine package counts only as its real install: a regular package with its metadata.
    if name in _ENGINES:
        return version(_ENGINES[name], name) is not None
    return resolve(name)


def describe(module):
    names = getattr(module, "__all__", None) or [n for n in dir(module) if not n.startswith("_")]
    out = {"names": sorted(set(names)), "decorators": [], "payloads": {}, "signals": []}
    for n in out["names"]:
        v = getattr(module, n, None)
        if isinstance(v, type):
            if issubclass(v, BaseException):
                out["signals"].append(n)
            elif isinstance(getattr(v, "model_fields", None), dict):
                out["payloads"][n] = list(v.model_fields)
        elif callable(v) and re.match(r"^(on|modify)_", n):
            out["decorators"].append(n)
    return out


def read(name):
    if not resolve(name):
        return None
    try:
        return describe(importlib.import_module(name))
    except BaseException as e:  # a broken install: say so, read nothing
        return {"error": f"{type(e).__name__}: {e}"[:500]}


def answer(req):
    out = {"modules": {n: found(n) for n in req.get("modules", [])}, "engine": None}
    if req.get("engine"):
        cayu = version("cayu", "cayu")
        out["engine"] = {"rasaPro": version("rasa-pro", "rasa"), "cayu": cayu,
                         "mantle": read("rasa.mantle.hooks"), "cayuHooks": read("cayu.runtime.hooks"),
                         # Which layout the installed cayu has (found, not imported): catalogue/cayu-lines.ts.
                         "cayuModules": {m: resolve(m) for m in CAYU_LAYOUT_MODULES} if cayu else None}
    stamps = []
    for p in sys.path:
        try:
            stamps.append([os.path.abspath(p), str(os.stat(p).st_mtime_ns)])
        except OSError:
            stamps.append([os.path.abspath(p or "."), None])
    out["stamps"] = stamps
    return out


def load_reaper():
    """The host's reaper (_hooksmith_host/reaper.py), by file: beside this script in dist/ (python/),
    or in the source tree. None where neither is found: the probe then ends only its group."""
    import importlib.util
    here = os.path.dirname(os.path.abspath(__file__))
    for path in (os.path.join(here, "python", "_hooksmith_host", "reaper.py"),
                 os.path.join(here, "..", "host", "python", "_hooksmith_host", "reaper.py")):
        if os.path.isfile(path):
            spec = importlib.util.spec_from_file_location("_hooksmith_probe_reaper", path)
            module = importlib.util.module_from_spec(spec)
            spec.loader.exec_module(module)
            return module
    return None


# An installed engine's import may start a daemon (setsid, double fork) that the group kill of the
# probe does not reach: as a child subreaper the probe keeps it among its descendants, and ends them.
REAPER = load_reaper()
if REAPER is not None:
    REAPER.become_subreaper()


def end_descendants():
    if REAPER is not None:
        REAPER.end_descendants()


def exit_with_parent():
    """A probe stuck importing an installed engine never reads its closed stdin: it ends when the
    process that started it (a CLI killed, a language server gone) is gone."""
    parent = os.getppid()

    def watch():
        while os.getppid() == parent:
            time.sleep(0.5)
        end_descendants()
        os._exit(0)

    threading.Thread(target=watch, daemon=True, name="hooksmith-probe-parent").start()


def main():
    exit_with_parent()
    # What an imported package prints is not an answer, and what it reads is not a request.
    requests, answers = sys.stdin, sys.stdout
    sys.stdin, sys.stdout = open(os.devnull), sys.stderr
    answers.write('{"ready": true}\n')  # the start-up handshake: this interpreter runs
    answers.flush()
    while True:
        line = requests.readline()
        if not line:
            break
        if line.strip():
            answers.write(json.dumps(answer(json.loads(line))) + "\n")
            answers.flush()
    end_descendants()  # stdin closed: everything is answered, and nothing an import started stays


main()
