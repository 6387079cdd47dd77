"""One case's process state must not reach the next (one warm host runs an agent's cases one
after another). The state after the host started and after each import of the agent's modules is
the baseline (an import's changes are the module's, as under the engine); before every case
(a call that is not a later call of the same run) the host puts back the working directory,
``sys.path``, ``os.environ``, the signal handlers and clears the interval timers. What cannot be
put back -- a thread a hook started still running (a ``threading.Timer`` that will call
``os._exit``), file descriptors used up, an engine module replaced in ``sys.modules`` -- makes
the host say it is stale, and PythonHost starts a fresh one for the case."""
import os
import signal
import sys
import threading
from typing import Dict, List, Optional

_ENGINE_PREFIXES = ("rasa.mantle", "cayu.")
_ENGINE_NAMES = ("rasa", "cayu")
# Threads a debugger attached to the host runs (debugpy / pydevd): the host's own, not a hook's.
_OWN_THREAD_PREFIXES = ("hooksmith-", "pydevd", "debugpy")
_TIMERS = tuple(getattr(signal, n) for n in ("ITIMER_REAL", "ITIMER_VIRTUAL", "ITIMER_PROF") if hasattr(signal, n))
_SIGNALS = tuple(s for s in getattr(signal, "valid_signals", lambda: ())()
                 if s not in (getattr(signal, "SIGKILL", -1), getattr(signal, "SIGSTOP", -1)))
_FD_HEADROOM = 32

_getcwd = os.getcwd
_chdir = os.chdir
_getsignal = signal.getsignal
_signal = signal.signal
_setitimer = getattr(signal, "setitimer", None)
_getitimer = getattr(signal, "getitimer", None)
_enumerate = threading.enumerate
_open = os.open
_close = os.close
_environ_copy = dict


class Baseline:
    def __init__(self) -> None:
        self.path: List[str] = []
        self.environ: Dict[str, str] = {}
        self.handlers: Dict[int, object] = {}
        self.threads = set()
        self.engine: Dict[str, object] = {}
        self.capture()

    def capture(self) -> None:
        """Takes the process state as it is now as the state every case starts from."""
        self.path = list(sys.path)
        self.environ = _environ_copy(os.environ)
        self.handlers = {}
        for s in _SIGNALS:
            try:
                h = _getsignal(s)
            except (OSError, ValueError):
                continue
            if h is not None:
                self.handlers[s] = h
        self.threads = {t.ident for t in _enumerate()}
        self.engine = {n: m for n, m in list(sys.modules.items())
                       if m is not None and (n in _ENGINE_NAMES or n.startswith(_ENGINE_PREFIXES))}

    def stale(self) -> List[str]:
        """Why this host cannot run another case as if fresh ([] when it can)."""
        why: List[str] = []
        for t in _enumerate():
            if t.ident in self.threads or t.name.startswith(_OWN_THREAD_PREFIXES) or _idle_worker(t):
                continue
            why.append(f"a thread an earlier case started is still running ({t.name})")
            break
        for name, mod in self.engine.items():
            if sys.modules.get(name) is not mod:
                why.append(f"an earlier case replaced sys.modules[{name!r}]")
                break
        fds = []
        try:
            for _ in range(_FD_HEADROOM):
                fds.append(_open(os.devnull, os.O_RDONLY))
        except OSError as e:
            why.append(f"an earlier case used up the file descriptors ({e.strerror})")
        finally:
            for fd in fds:
                _close(fd)
        return why

    def restore(self, root: Optional[str]) -> None:
        """Puts back what a case may have changed (called before the next case; root: the agent's)."""
        if sys.path != self.path:
            sys.path[:] = self.path
        if os.environ != self.environ:
            os.environ.clear()
            os.environ.update(self.environ)
        if root is not None:
            try:
                if _getcwd() != root:
                    _chdir(root)
            except OSError:
                _chdir(root)
        if _setitimer is not None:
            for which in _TIMERS:
                try:
                    if _getitimer(which) != (0.0, 0.0):
                        _setitimer(which, 0)
                except (OSError, ValueError):
                    pass
        for s in _SIGNALS:
            want = self.handlers.get(s)
            if want is None:
                continue
            try:
                if _getsignal(s) is not want:
                    _signal(s, want)
            except (OSError, ValueError, TypeError):
                pass


def _idle_worker(t) -> bool:
    """A worker of an asyncio default executor (asyncio.to_thread) waiting for work: its innermost
    Python frame is the pool's own loop (one running a job is inside the job)."""
    if not t.name.startswith("asyncio_"):
        return False
    frame = sys._current_frames().get(t.ident)
    code = frame.f_code if frame is not None else None
    return code is not None and code.co_name == "_worker" and code.co_filename.endswith(
        os.path.join("concurrent", "futures", "thread.py"))
