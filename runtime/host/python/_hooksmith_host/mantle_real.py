"""Real-engine mode for Mantle: one hook call played by rasa-pro's own hook runner.

Where ``rasa.mantle.hooks.runner`` imports (no license key is needed for it), a Mantle hook is
registered in the engine's ``HookRegistry`` and called through ``run_modify`` / ``run_observers``
(rasa/mantle/hooks/runner.py:295 / :254): the engine's timeout (``asyncio.wait_for`` on the
decorator's ``_hook_timeout_ms``), its deep copy of the payload, its fail-open / fail-closed
(``HookExecutionError``), its handling of control signals and its restoring of identity fields.
A thin recorder around the function notes what the hook itself did (returned, raised), so the
result still says why the runner decided as it did. A whole turn needs a trained model and a
license (rasa.mantle.processor): the scenario's turn is Hooksmith's, each hook call the runner's.
Who plays is chosen on the TypeScript side (runtime/engine/players.ts, the Mantle player in
runtime/engine/mantle-real/): a request asks for the runner with ``mantleRunner``; the answer
carries the installed rasa-pro's version (``rasaPro``) when the runner played, and the player
names who played from it.
"""
import asyncio
import gc
import importlib
import os
import sys

_state = None  # None: not asked yet; False: not available; else (runner, registry, exceptions, version)


def _quiet_engine_logs() -> None:
    """The runner logs each execution with structlog, to stdout (which the host captures as the
    hook's own output) and, for an observer's error, a debug line with a rich traceback that takes
    longer to render than a hook's budget: the engine's lines go to the host's log (stderr),
    info and up, as key=value text."""
    try:
        import logging

        import structlog

        structlog.configure(
            processors=[structlog.processors.add_log_level, structlog.processors.KeyValueRenderer(key_order=["event"])],
            wrapper_class=structlog.make_filtering_bound_logger(logging.INFO),
            logger_factory=structlog.PrintLoggerFactory(sys.stderr),
            cache_logger_on_first_use=False,
        )
    except Exception:
        pass


def available():
    """The installed rasa-pro's version when its runner imports here, else None."""
    global _state
    if _state is None:
        _state = False
        os.environ.setdefault("RASA_TELEMETRY_ENABLED", "false")  # never send telemetry from a test run
        try:
            runner = importlib.import_module("rasa.mantle.hooks.runner")
            registry = importlib.import_module("rasa.mantle.hooks.registry")
            exceptions = importlib.import_module("rasa.mantle.hooks.exceptions")
            import importlib.metadata as md

            version = md.version("rasa-pro")
        except Exception:
            return None
        _quiet_engine_logs()
        try:  # its first call loads the licensing module (~0.7 s): paid here, not in a hook's budget
            importlib.import_module("rasa.telemetry").is_telemetry_enabled()
        except Exception:
            pass
        # rasa's import leaves millions of objects: a full collection during a hook's 50-500 ms budget
        # would be Hooksmith's pause, not the hook's. They live as long as the host: freeze them.
        gc.collect()
        gc.freeze()
        _state = (runner, registry, exceptions, version)
    return _state[3] if _state else None


def pending() -> bool:
    """The runner was not looked for yet (the first Mantle call imports it: seconds, not the hook's time)."""
    return _state is None


def _recording(fn, record):
    """fn as the runner will call it, noting what the hook did. Sync stays sync: the runner then
    awaits a non-awaitable and fails as it would with the real function."""

    def observed(payload):
        record["arg"] = payload
        try:
            value = fn(payload)
        except BaseException as e:  # noqa: B902 - noted, then the runner sees it
            record["raised"] = e
            raise
        if not hasattr(value, "__await__"):
            record["returned"] = value
            record["sync"] = True
            return value

        async def awaited():
            try:
                result = await value
            except BaseException as e:  # noqa: B902
                record["raised"] = e
                raise
            record["returned"] = result
            return result

        return awaited()

    observed.__name__ = getattr(fn, "__name__", "hook")
    observed.__qualname__ = getattr(fn, "__qualname__", observed.__name__)
    return observed


async def play(fn, payload, point: str, lane: str, timeout_ms: float):
    """Runs one hook through the runner; returns (record, decision)."""
    runner, registry_mod, exceptions, _ = _state
    record = {}
    # The engine's budget is the decorator's (real decorators set _hook_timeout_ms).
    engine_timeout = getattr(fn, "_hook_timeout_ms", None)
    hook = registry_mod.RegisteredHook(
        func=_recording(fn, record), point=point, lane=lane,
        timeout_ms=engine_timeout if isinstance(engine_timeout, int) else int(timeout_ms),
    )
    registry = registry_mod.HookRegistry()
    registry.register(hook)
    decision = {"rasaPro": available(), "timeoutMs": hook.timeout_ms, "executionError": None, "controlFlow": None}
    if lane == "observe":
        task = runner.run_observers(registry, point, payload)
        if task is not None:
            await task
        raised = record.get("raised")
        decision["outcome"] = "success" if "raised" not in record else (
            "timeout" if isinstance(raised, asyncio.CancelledError) else "error")
        return record, decision
    try:
        result = await runner.run_modify(registry, point, payload)
    except exceptions.HookExecutionError as e:
        decision["executionError"] = str(e)
        text = str(e)
        decision["outcome"] = "timeout" if " timed out after " in text else "error"
        return record, decision
    decision["outcome"] = result.outcome
    if result.control_flow is not None:
        decision["controlFlow"] = type(result.control_flow).__name__
    decision["payload"] = result.payload
    return record, decision


_ensure_future = asyncio.ensure_future


def wait_for_error(value) -> TypeError:
    """The TypeError asyncio.wait_for raises for a value that is not awaitable (asyncio's own text)."""
    try:
        _ensure_future(value)
    except TypeError as e:
        return e
    return TypeError(f"An asyncio.Future, a coroutine or an awaitable is required, not {type(value).__name__}")


def runner_played(res, played, arg, serialise):
    """The runner's decision into the answer (mantleRunner), and what the hook itself did as the
    raw result PythonHost reads (returned / raised / timed out), from the recorder."""
    record, decision = played
    payload = decision.pop("payload", None)
    if payload is not None:
        decision["payload"] = serialise(payload).get("value")
    res["mantleRunner"] = decision
    seen = record.get("arg", arg)
    if "raised" in record:
        raised = record["raised"]
        if isinstance(raised, asyncio.CancelledError) and decision["outcome"] == "timeout":
            return "timeout", None, False, seen
        return "err", raised, False, seen
    if "returned" in record:
        return "ok", record["returned"], bool(record.get("sync")), seen
    return ("timeout" if decision["outcome"] == "timeout" else "ok"), None, False, seen


def prepare(req, res, installed: bool, announced: bool, loading, fn, arg, timeout_ms: float):
    """(real, announced, what the host's body runs) for one Mantle call."""
    real, announced = choose(req, res, installed, announced, loading)
    return real, announced, caller(real, fn, arg, req, timeout_ms)


def sync_outcome(engine_call, outcome: str, value):
    """A plain (sync) function: rasa-pro's runner awaits asyncio.wait_for(hook.func(payload))
    (runner.py:327), which refuses a value that is not awaitable: the body ran, the hook failed."""
    if engine_call and outcome == "ok":
        return "err", wait_for_error(value)
    return outcome, value


def choose(req, res, installed: bool, announced: bool, loading):
    """Whether the runner plays this call (the request asks for it and names its point and lane,
    the real rasa.mantle.hooks imports, the runner too); the installed version in res when it
    does. The runner's first import takes seconds: announced as loading, never in the hook's time."""
    asked = bool(req.get("mantleRunner") and req.get("point") and req.get("lane"))
    if asked and installed and pending() and not announced:
        loading()
        announced = True
    real = bool(asked and installed and available())
    if real:
        res["rasaPro"] = available()
    return real, announced


def caller(real: bool, fn, arg, req, timeout_ms: float):
    """What the host's body runs: the runner around the hook (real-engine mode), else the hook."""
    if real:
        return lambda: play(fn, arg, str(req["point"]), str(req["lane"]), timeout_ms)
    return lambda: fn(arg)
