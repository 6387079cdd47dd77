"""One app of the engine: what lives from its first call to its last.

An ``invoke`` names its app (``app``: an id the caller picks per scenario or payload case; none:
the call is an app of its own). A call that starts an app finds the process as a fresh start of
the engine would (isolation.py puts the process state back, loader.py imports the agent's
modules afresh); the later calls of the same app share those modules and the Cayu hook
instances, as a ``CayuApp`` calls the instance registered with it for every tool call, batch and
run (cayu 0.3.0 runtime/hooks.py: the registry keeps the objects it is given)."""
from typing import Any, Callable, Dict, Optional, Tuple


class App:
    def __init__(self) -> None:
        self.id: Optional[str] = None
        self._instances: Dict[Tuple[str, str], Any] = {}

    def enter(self, app_id: Any) -> bool:
        """True when this call continues the current app; else the call starts a new one."""
        if isinstance(app_id, str) and app_id and app_id == self.id:
            return True
        self.id = app_id if isinstance(app_id, str) and app_id else None
        self._instances.clear()
        return False

    def hook(self, path: str, qualname: str, make: Callable[[], Any]) -> Any:
        """The app's instance of a RuntimeHook class, built on its first use (a failed build is not kept)."""
        key = (path, qualname)
        if key not in self._instances:
            self._instances[key] = make()
        return self._instances[key]
