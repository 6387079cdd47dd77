"""The host ends when the process that started it is gone (a CLI killed, an editor closed).

stdin EOF is the usual signal, but it is read on the event loop: a module whose import never
ends, or a debugger holding the host paused, keeps the loop from ever seeing it. A thread
that polls the parent id does not depend on the loop."""
import os
import threading
import time


def start(on_gone) -> None:
    parent = os.getppid()

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(0.5)
        on_gone()

    threading.Thread(target=watch, daemon=True, name="hooksmith-parent-watch").start()
