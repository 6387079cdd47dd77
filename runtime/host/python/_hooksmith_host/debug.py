"""Debug runs (``HOOKSMITH_DEBUG_LISTEN=host:port``): before answering hello, the host listens for a
DAP client with debugpy and waits until one has attached and configured its breakpoints. Budgets
are not enforced in a debug run (a breakpoint is not a timed-out hook); the time the main thread
spends paused in the debugger is counted, so a hook's measured time can leave the pauses out."""
import os
import sys
import threading
import time
from typing import Callable, Optional

_monotonic = time.monotonic
_main = threading.get_ident()
_paused_s = 0.0
counts_pauses = False
enabled = False

INSTALL_HINT = ("install it for this interpreter (Debian/Ubuntu: apt-get install python3-debugpy; "
                "elsewhere: {exe} -m pip install debugpy), or choose an interpreter that has it "
                "(--python, hooksmith.pythonPath)")


def requested() -> Optional[str]:
    return os.environ.get("HOOKSMITH_DEBUG_LISTEN") or None


def paused_s() -> float:
    """Seconds the main thread has spent paused in the debugger so far."""
    return _paused_s


def _count_pauses(py_db) -> None:
    """pydevd suspends a thread in PyDB.do_wait_suspend until the client resumes it: time it."""
    global counts_pauses
    wait = getattr(py_db, "do_wait_suspend", None)
    if wait is None:
        return

    def timed_wait(*args, **kwargs):
        global _paused_s
        if threading.get_ident() != _main:
            return wait(*args, **kwargs)
        t0 = _monotonic()
        try:
            return wait(*args, **kwargs)
        finally:
            _paused_s += _monotonic() - t0

    py_db.do_wait_suspend = timed_wait
    counts_pauses = True


def _hide_host_frames(py_db, host_dirs) -> None:
    """justMyCode hides library frames; the host's own files (and its shims) count as library."""
    try:
        files = py_db._files_filtering
        files.set_library_roots([*files._get_library_roots(), *host_dirs])
        py_db._clear_filters_caches()
    except Exception:  # noqa: B902 - pydevd internals differ: the host's frames stay visible
        pass


def start(address: str, host_dirs, announce: Callable[[str], None]) -> Optional[str]:
    """Listens at `address` and waits for a client; returns an error message, None when attached."""
    global enabled
    # The host's own threads (the watchdog, the parent watch that ends a host whose CLI is gone,
    # parent_watch.py) are not the user's: never traced nor suspended by the debugger.
    for t in threading.enumerate():
        if t.name.startswith("hooksmith-"):
            t.pydev_do_not_trace = True
            t.is_pydev_daemon_thread = True
    host, _, port = address.rpartition(":")
    try:
        import debugpy
    except ImportError:
        return f"debugpy is not installed for {sys.executable}: " + INSTALL_HINT.format(exe=sys.executable)
    try:
        bound = debugpy.listen((host or "127.0.0.1", int(port)))
    except Exception as e:  # noqa: B902 - port in use, bad address, a broken debugpy
        return f"debugpy could not listen on {address}: {e}"
    try:
        import pydevd

        py_db = pydevd.get_global_debugger()
    except Exception:  # noqa: B902 - pydevd internals differ: frames shown, pauses not counted
        py_db = None
    if py_db is not None:
        _hide_host_frames(py_db, host_dirs)
        _count_pauses(py_db)
    announce(f"{bound[0]}:{bound[1]}" if isinstance(bound, tuple) else address)
    debugpy.wait_for_client()
    enabled = True
    return None


def attach_if_requested(host_dirs, announce, retake) -> Optional[str]:
    """On the first hello of a debug run: listen, wait for the client, then `retake` the guard's
    snapshot (debugpy patched what it needs: that is the host's world now). The error, or None."""
    address = requested()
    if not address or enabled:
        return None
    error = start(address, host_dirs, announce)
    if error is None:
        retake()
    return error
