#!/usr/bin/env python3
"""Hooksmith's hook host: a long-lived process that runs hook code on request.

Protocol: line-delimited JSON over stdio (see runtime/host/protocol.ts). Requests carry
an ``id``; each ``invoke`` runs as its own asyncio task, so several may be in flight.
User code never reaches the protocol channel: the real stdout/stdin are moved to
private fds first thing, fd 0 reads /dev/null, fd 1 writes to stderr (the log), and
``sys.stdout`` is routed into a bounded per-hook buffer returned with each result.
Standard library only; Python >= 3.9.
"""
import os
import sys


def _protect_stdio():
    proto_in, proto_out = os.dup(0), os.dup(1)
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    os.close(null)
    os.dup2(2, 1)  # raw fd-1 writes (C code, subprocesses) land in the log stream
    return proto_in, proto_out


PROTO_IN, PROTO_OUT = _protect_stdio()
sys.stdin = open(os.devnull, encoding="utf-8")
sys.dont_write_bytecode = True  # never leave (or trust our own) stale .pyc of edited hook modules

_HOST_DIR = os.path.dirname(os.path.abspath(__file__))
if sys.path and os.path.abspath(sys.path[0] or ".") == _HOST_DIR:
    sys.path.pop(0)  # the host's folder must not shadow the user's modules
sys.path.insert(0, _HOST_DIR)
import asyncio  # noqa: E402
import importlib  # noqa: E402
import json  # noqa: E402
import threading  # noqa: E402
import time  # noqa: E402
from typing import Any, Dict  # noqa: E402

from _hooksmith_host import app as app_state, capture, cayu_call, cayu_real, coverage as line_coverage, debug, guard, isolation, limits, mantle_real, parent_watch, reaper, shim_finder  # noqa: E402
from _hooksmith_host.catalogue import MANTLE  # noqa: E402
from _hooksmith_host.describe import describe_exception, request_id, serialise, to_json_text  # noqa: E402
from _hooksmith_host.loader import ModuleCache  # noqa: E402
from _hooksmith_host.targets import dump_payload, overrides_phase, resolve_dotted  # noqa: E402
from _hooksmith_host.watchdog import Watchdog  # noqa: E402

sys.path.remove(_HOST_DIR)
limits.limit_memory()  # before any user code runs
shim_finder.install()
capture.install()
_SUBREAPER = reaper.become_subreaper()  # a hook's daemons stay in the host's tree

_PAYLOAD_TYPES = {p["name"] for p in MANTLE["payloads"]}
_cache = ModuleCache()
_app = app_state.App()
_write_lock = threading.Lock()
_watchdog: Any = None
_baseline: Any = None

# The host's own references, taken before any user code runs: a hook that rebinds
# asyncio.wait or json.dumps changes the hook's world, not the host's (guard.py restarts it).
_wait = asyncio.wait
_ensure_future = asyncio.ensure_future
_iscoroutine = asyncio.iscoroutine
_Future = asyncio.Future
_current_task = asyncio.current_task
_all_tasks = asyncio.all_tasks
_async_sleep = asyncio.sleep
_perf_counter = time.perf_counter
_monotonic = time.monotonic
_time = time.time
_os_write = os.write
_os_exit = os._exit
_getframe = sys._getframe
_import_module = importlib.import_module
# ASCII out: a lone surrogate a hook returns travels as its \\u escape, unchanged.
_ENCODER = json.JSONEncoder(ensure_ascii=True, allow_nan=False)
_DECODER = json.JSONDecoder()
# A body that starts later than this after PythonHost sent its request (`sentAt`, wall clock:
# an import, a busy loop ahead of it) is announced with `started`, so its deadline runs from there.
_LATE_START_MS = 3.0


def send(msg: Dict[str, Any]) -> None:
    try:
        data = (_ENCODER.encode(msg) + "\n").encode("ascii")
    except (TypeError, ValueError, RecursionError) as e:
        data = (_ENCODER.encode({"id": msg.get("id"), "status": "host-error", "message": f"unserialisable response: {e!r}"}) + "\n").encode("ascii")
    with _write_lock:
        view = memoryview(data)
        while view:
            n = _os_write(PROTO_OUT, view)
            view = view[n:]


def log(line: str) -> None:
    sys.stderr.write(f"[hooksmith-host] {line}\n")
    sys.stderr.flush()


def hello(loop, rid: int) -> None:
    info = {"id": rid, "status": "hello", "python": ".".join(map(str, sys.version_info[:3])),
            "executable": sys.executable, "pid": os.getpid()}
    # A debug run: the client attaches before any user code (the host waits; PythonHost allows that).
    error = debug.attach_if_requested((_HOST_DIR,), lambda a: send({"id": rid, "event": "debug-listening", "address": a}),
                                      lambda: guard.take(loop))
    if error:
        return send({**info, "debugError": error})
    send({**info, "debug": debug.enabled, "subreaper": _SUBREAPER,
          "realMantle": shim_finder.real("rasa.mantle.hooks"), "realCayu": shim_finder.real(shim_finder.shim_scope.HOOKS_MODULE)})


def _signals():
    try:
        mod = _import_module("rasa.mantle.hooks")
    except BaseException:
        return ()
    return tuple((n, getattr(mod, n, None)) for n in MANTLE["controlSignals"])


async def _guarded(call, rid):
    """Runs the hook; nothing it raises (SystemExit, KeyboardInterrupt, BaseException) escapes.
    Registered with the watchdog until it ends, even after a timeout cancelled it."""
    frame = _getframe()
    _watchdog.enter(frame, rid)
    try:
        value = call()
        if _iscoroutine(value) or isinstance(value, _Future) or hasattr(value, "__await__"):
            return "ok", await value, False
        return "ok", value, True
    except BaseException as e:  # noqa: B902 - the host must survive anything
        return "err", e, False
    finally:
        _watchdog.leave(frame)


async def _run_body(call, timeout_ms: float, rid, holder=True):
    """holder=False (a whole Cayu scenario): the body's own code holding a stalled loop names no
    request; only the hook frames it registers itself do (cayu_real.Recorder) -- the runtime's own
    work is no hook's fault (#44 item 15)."""
    t0 = _perf_counter()
    inner = _ensure_future(_guarded(call, rid if holder else None))
    # A debug run enforces no budget: a hook paused at a breakpoint is not a timed-out hook.
    done, _ = await _wait({inner}, timeout=None if debug.enabled else max(timeout_ms, 0) / 1000.0)
    duration = (_perf_counter() - t0) * 1000.0
    if not done:
        inner.cancel()  # cooperative: report now, whatever the task does with the cancellation
        return ("timeout", None, False), duration
    return inner.result(), duration


# Written on the real stderr before an app's first call (APP_START_LINE in protocol.ts): a crash
# report keeps the stderr lines after it, what its own app printed, whichever apps the host played before.
_APP_START_LINE = b"\x1ehooksmith-app-start\n"


async def invoke(req: Dict[str, Any]) -> Dict[str, Any]:
    rid = req.get("id")
    app_id = req.get("app")
    if not (isinstance(app_id, str) and app_id and app_id == _app.id):
        sys.stderr.flush()
        _os_write(2, _APP_START_LINE)
    cap = capture.Capture()
    capture.current.set(cap)
    line_coverage.begin(req.get("agentRoot"))
    try:
        result = await _invoke(req, rid, {"id": rid, "durationMs": 0})
    except BaseException:
        line_coverage.abandon(req.get("agentRoot"))  # no answer will settle its count
        raise
    capture.reinstall_if_replaced()
    result["output"] = cap.to_json()
    result.update(line_coverage.answer_field(req.get("agentRoot")))
    return result


async def _invoke(req: Dict[str, Any], rid: Any, res: Dict[str, Any]) -> Dict[str, Any]:
    kind = req.get("kind")
    if kind == "cayu-real":  # real-engine mode: the whole scenario in the installed runtime (cayu_real.py)
        return await cayu_real.invoke(req, res, dict(cache=_cache, baseline=_baseline, send=send, describe=describe_exception, run_body=_run_body, watchdog=lambda: _watchdog))
    handler_name = str(req.get("handler") or "")
    if kind not in ("mantle", "cayu") or not handler_name or not req.get("agentRoot") or not req.get("file"):
        return {**res, "status": "invalid-request", "message": "invoke needs agentRoot, file, handler and kind (mantle|cayu)"}
    phase = req.get("phase")
    if kind == "mantle" and req.get("payloadType") not in _PAYLOAD_TYPES:
        return {**res, "status": "invalid-request", "message": f"unknown payloadType {req.get('payloadType')!r}"}
    if kind == "cayu" and cayu_call.phase_spec(str(phase)) is None:
        return {**res, "status": "invalid-request", "message": f"unknown Cayu phase {phase!r}"}
    # `loading` tells PythonHost to allow import time (and a slow scan of a big agent root).
    same_app = _app.enter(req.get("app"))
    if not same_app:  # a new app: it starts from the state the host and the agent's imports left
        stale = _baseline.stale()
        if stale:
            _app.enter(None)
            return {**res, "status": "host-stale", "message": "; ".join(stale)}
        _baseline.restore(_cache.current_root)
    announced = False
    name, path, load = _cache.plan(str(req["agentRoot"]), str(req["file"]), same_app)
    res.update(module=name, load=load)
    if load != "cached":
        send({"id": rid, "event": "loading"})
        announced = True
        try:
            mod = _cache.load(name, path)
        except BaseException as e:  # noqa: B902
            _cache.forget()  # the next case imports it again, from a root back on sys.path
            return {**res, "status": "load-error", "stage": "import", "exception": describe_exception(e)}
        _baseline.capture()  # what the import set up is the module's, kept for the cases after
    else:
        mod = _cache.by_path[path]
    owner, _, method = handler_name.rpartition(".") if kind == "cayu" else ("", "", handler_name)
    try:
        target = resolve_dotted(mod, owner or method)
    except AttributeError as e:
        return {**res, "status": "load-error", "stage": "handler", "exception": describe_exception(e)}
    signals = _signals() if kind == "mantle" else ()
    payload = req.get("payload")
    timeout_ms = float(req.get("timeoutMs") or 0)
    if kind == "mantle":
        res["decorator"] = getattr(target, "__hooksmith__", None)
        try:
            cls = getattr(_import_module("rasa.mantle.hooks"), req["payloadType"])
            arg = cls.model_validate(payload)
        except Exception as e:
            return {**res, "status": "invalid-request", "message": f"cannot build {req['payloadType']}: {e}"}
        before = dump_payload(arg)
        fn = target
        real, announced, call = mantle_real.prepare(req, res, shim_finder.real("rasa.mantle.hooks"), announced, lambda: send({"id": rid, "event": "loading"}), fn, arg, timeout_ms)
    else:
        if not owner:
            return {**res, "status": "invalid-request", "message": "a Cayu handler is Class.method"}
        try:
            instance = _app.hook(path, owner, target)
            res["hookName"] = str(getattr(instance, "name", type(instance).__name__))
        except BaseException as e:  # noqa: B902
            return {**res, "status": "load-error", "stage": "instantiate", "exception": describe_exception(e)}
        res["overridesPhase"] = overrides_phase(type(instance), method)
        try:
            bound = getattr(instance, method)
        except AttributeError as e:
            return {**res, "status": "load-error", "stage": "handler", "exception": describe_exception(e)}
        try:
            ctx, original_args, _ = cayu_call.build_context(str(phase), res["hookName"], payload if isinstance(payload, dict) else {})
        except Exception as e:
            return {**res, "status": "invalid-request", "message": f"cannot build the {phase} context: {e}"}
        call = lambda: bound(ctx)  # noqa: E731
    # PythonHost applies the hook's deadline from `started`, else from sending the request (with
    # time to carry its payload): a body that starts right after that needs no message.
    sent_at = req.get("sentAt")
    if announced or not isinstance(sent_at, (int, float)) or _time() * 1000.0 - sent_at > _LATE_START_MS:
        send({"id": rid, "event": "started"})
    paused_before = debug.paused_s()
    real = kind == "mantle" and real  # then the runner's wait_for ends a slow hook; ours backs it up
    (outcome, value, was_sync), duration = await _run_body(call, timeout_ms + (100 if real else 0), rid)
    send({"id": rid, "event": "ended"})
    if real and outcome == "ok":  # Cayu calls have no `arg`
        outcome, value, was_sync, arg = mantle_real.runner_played(res, value, arg, serialise)
    res["durationMs"] = round(duration, 3)
    if debug.enabled:  # pausedMs null: the pauses could not be counted
        paused = (debug.paused_s() - paused_before) * 1000.0 if debug.counts_pauses else None
        res["debug"] = {"pausedMs": None if paused is None else round(paused, 3)}
    if was_sync and kind == "cayu" and outcome == "ok":
        # The runtime awaits the method's result: a sync method's body ran, then the await raised.
        outcome, value = "err", cayu_call.await_error(value)
    elif was_sync:
        res["handlerWasSync"] = True
        outcome, value = mantle_real.sync_outcome(kind == "mantle" and req.get("point"), outcome, value)
    if kind == "mantle":
        after = dump_payload(arg)
        if after != before:
            res["payloadMutated"] = True
            res["payloadAfter"] = serialise(arg).get("value")
    else:
        res["actions"] = cayu_call.recorded_actions(ctx)
        res["argumentsMutated"] = cayu_call.arguments_mutated(ctx, original_args)
    if outcome == "timeout":
        return {**res, "status": "timed-out", "killed": False, "timeoutMs": timeout_ms}
    if outcome == "err":
        return {**res, "status": "raised", "exception": describe_exception(value, signals)}
    return {**res, "status": "returned", **serialise(value)}


async def _invoke_and_send(req: Dict[str, Any]) -> None:
    rid = req.get("id")
    frame = _getframe()
    _watchdog.enter(frame, rid)
    try:
        try:
            result = await invoke(req)
        except BaseException as e:  # noqa: B902 - a host bug (or a broken host) must not take it down
            result = {"id": rid, "status": "host-error", "message": f"host error: {e!r}"}
        changed = guard.broken()
        if changed:  # PythonHost restarts this host: no later run may see the change
            result["hostChanged"] = changed[:20]
        send(result)
    finally:
        _watchdog.leave(frame)


def on_line(loop, line: bytes) -> None:
    try:
        req = _DECODER.decode(line.decode("utf-8"))
        if not isinstance(req, dict):
            raise ValueError("a request is a JSON object")
    except RecursionError:
        send({"id": request_id(line), "status": "protocol-error",
              "message": "the request is nested too deeply for Python's json module"})
        return
    except ValueError as e:
        send({"id": request_id(line), "status": "protocol-error", "message": f"malformed request: {e}"})
        return
    op, rid = req.get("op"), req.get("id")
    if op == "hello":
        hello(loop, rid)
    elif op == "invoke":
        loop.create_task(_invoke_and_send(req))
    elif op == "shutdown":
        reaper.end_descendants()
        send({"id": rid, "status": "bye"})
        _os_exit(0)
    else:
        send({"id": rid, "status": "protocol-error", "message": f"unknown op {op!r}"})


def _reader(loop) -> None:
    """Thread reader (Windows: the proactor loop cannot watch a pipe)."""
    with os.fdopen(PROTO_IN, "rb", buffering=1 << 16) as f:
        for line in f:
            if line.strip():
                loop.call_soon_threadsafe(on_line, loop, line)
    loop.call_soon_threadsafe(lambda: loop.create_task(_drain_and_exit()))


def _watch_stdin(loop) -> None:
    """POSIX: read protocol lines on the loop itself (no thread hand-off on the warm path)."""
    os.set_blocking(PROTO_IN, False)
    pending = bytearray()

    def readable() -> None:
        try:
            chunk = os.read(PROTO_IN, 1 << 16)
        except BlockingIOError:
            return
        if not chunk:
            loop.remove_reader(PROTO_IN)
            loop.create_task(_drain_and_exit())
            return
        start = len(pending)
        pending.extend(chunk)
        while True:
            nl = pending.find(b"\n", start)
            start = 0
            if nl < 0:
                break
            line = bytes(pending[:nl])
            del pending[: nl + 1]
            if line.strip():
                on_line(loop, line)

    loop.add_reader(PROTO_IN, readable)


async def _drain_and_exit() -> None:
    """stdin closed (the parent is gone or done): finish in-flight calls, briefly, then exit."""
    deadline = _monotonic() + 5.0
    me = _current_task()
    while _monotonic() < deadline:
        if not [t for t in _all_tasks() if t is not me and t.get_coro().__name__ == "_invoke_and_send"]:
            break
        await _async_sleep(0.01)
    reaper.end_descendants()
    _os_exit(0)


def main() -> None:
    global _watchdog, _baseline
    parent_watch.start(lambda: (reaper.end_descendants(), _os_exit(0)))
    loop = asyncio.new_event_loop()
    asyncio.set_event_loop(loop)
    _watchdog = Watchdog(loop, send)
    line_coverage.start(_HOST_DIR)  # before any user code: module-level lines of an import count
    guard.take(loop)
    _baseline = isolation.Baseline()
    loop.set_exception_handler(lambda _l, ctx: log(f"unhandled in a hook task: {ctx.get('exception') or ctx.get('message')!r}"))
    if os.name == "nt":
        threading.Thread(target=_reader, args=(loop,), daemon=True, name="hooksmith-protocol").start()
    else:
        _watch_stdin(loop)
    while True:
        try:
            loop.run_forever()
        except BaseException as e:  # noqa: B902 - e.g. SystemExit from a task a hook spawned
            log(f"kept running after {type(e).__name__} escaped a hook task")


if __name__ == "__main__":
    main()
