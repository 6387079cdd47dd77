"""Per-hook capture of what the hook prints. sys.stdout is replaced by a router that writes
into the buffer of the asyncio task (contextvar) running the hook; prints from anywhere
else (import side effects in threads, stray tasks) go to the log stream (stderr)."""
import contextvars
import io
import sys
from typing import Any, Dict, List

LIMIT_CHARS = 64 * 1024

current: "contextvars.ContextVar[Any]" = contextvars.ContextVar("hooksmith_capture", default=None)


class Capture:
    __slots__ = ("parts", "size", "dropped")

    def __init__(self) -> None:
        self.parts: List[str] = []
        self.size = 0
        self.dropped = 0

    def add(self, s: str) -> None:
        room = LIMIT_CHARS - self.size
        if room <= 0:
            self.dropped += len(s)
            return
        if len(s) > room:
            self.parts.append(s[:room])
            self.size += room
            self.dropped += len(s) - room
        else:
            self.parts.append(s)
            self.size += len(s)

    def to_json(self) -> Dict[str, Any]:
        return {"text": "".join(self.parts), "droppedChars": self.dropped}


class RoutedStdout(io.TextIOBase):
    """Stand-in for sys.stdout: never reaches the protocol channel."""

    def __init__(self, fallback) -> None:
        super().__init__()
        self._fallback = fallback

    def write(self, s: str) -> int:
        if not isinstance(s, str):
            raise TypeError(f"write() argument must be str, not {type(s).__name__}")
        cap = current.get()
        if cap is not None:
            cap.add(s)
        else:
            self._fallback.write(s)
        return len(s)

    def writable(self) -> bool:
        return True

    @property
    def buffer(self) -> "_RoutedBuffer":
        return _RoutedBuffer(self)

    def flush(self) -> None:
        if current.get() is None:
            self._fallback.flush()

    def isatty(self) -> bool:
        return False

    def fileno(self) -> int:
        return 1  # fd 1 now points at stderr (the log stream), never at the protocol

    @property
    def encoding(self) -> str:  # type: ignore[override]
        return "utf-8"


class _RoutedBuffer:
    """sys.stdout.buffer: bytes are decoded and routed like text."""

    def __init__(self, text: RoutedStdout) -> None:
        self._text = text

    def write(self, b) -> int:
        self._text.write(bytes(b).decode("utf-8", "replace"))
        return len(b)

    def flush(self) -> None:
        self._text.flush()


_router = None


def install() -> None:
    global _router
    _router = RoutedStdout(sys.stderr)
    sys.stdout = _router


def reinstall_if_replaced() -> None:
    """A hook that rebinds sys.stdout would blind the capture of later calls: put it back."""
    if _router is not None and sys.stdout is not _router:
        sys.stdout = _router
