"""Says which request holds the event loop when it stalls, so that PythonHost blames the hook
that blocks (or the import, or a cancelled hook still running) and not the ones waiting
behind it. A thread watches a heartbeat the loop beats while any request or cancelled hook is
alive; after STALL_S without a beat it names the request whose code the main thread is in
(``{"event": "blocking", "id": rid}``; id null: the host's own code) and ``resumed`` after."""
import sys
import threading
import time
from typing import Any, Callable, Dict, Optional

STALL_S = 0.05
BEAT_S = 0.02

_monotonic = time.monotonic
_sleep = time.sleep
_current_frames = sys._current_frames


class Watchdog:
    def __init__(self, loop, send: Callable[[Dict[str, Any]], None]) -> None:
        self._loop = loop
        self._send = send
        self._main = threading.get_ident()
        self._frames: Dict[Any, Any] = {}  # frame of a host coroutine running a request -> its id
        self._live = 0
        self._beating = False  # a beat is scheduled on the loop
        self._last = _monotonic()
        self._wake = threading.Event()
        threading.Thread(target=self._watch, daemon=True, name="hooksmith-watchdog").start()

    def enter(self, frame, rid) -> None:
        """Called on the loop by a host coroutine that runs request rid's code."""
        self._frames[frame] = rid
        self._live += 1
        if self._live == 1:
            self._last = _monotonic()
            if not self._beating:  # calls one after another share the beat already scheduled
                self._beating = True
                self._loop.call_later(BEAT_S, self._beat)
            self._wake.set()

    def leave(self, frame) -> None:
        self._frames.pop(frame, None)
        self._live -= 1

    def _beat(self) -> None:
        self._last = _monotonic()
        self._beating = self._live > 0
        if self._beating:
            self._loop.call_later(BEAT_S, self._beat)

    def _holder(self) -> Optional[Any]:
        frame = _current_frames().get(self._main)
        while frame is not None:
            rid = self._frames.get(frame)
            if rid is not None:
                return rid
            frame = frame.f_back
        return None

    def _watch(self) -> None:
        reported = False
        holder = None
        while True:
            if self._live <= 0 and not reported:
                self._wake.wait()
                self._wake.clear()
                continue
            _sleep(BEAT_S)
            stalled = _monotonic() - self._last > STALL_S and self._live > 0
            if stalled:
                # Named again when the code holding the loop changes without a beat in between
                # (the runtime's own code, then a hook it calls, #44 item 1).
                now = self._holder()
                if not reported or now != holder:
                    self._send({"id": now, "event": "blocking"})
                    reported, holder = True, now
            elif reported:
                self._send({"id": None, "event": "resumed"})
                reported = False
