"""Real-engine mode: a whole Cayu scenario played by the installed ``cayu`` runtime.

One ``CayuApp`` per scenario with the agent's RuntimeHook classes instantiated once and registered
at app scope (``app_hooks``, in that order) and agent scope (the rest, in order), as the user's
code registers them; a scripted provider fed the scenario's completions; the mock tools registered
as real tools (a denied tool through a real ToolPolicy). One session per conversation: ``run`` for
the first turn, ``resume`` for each later one. What happened is read from the runtime's own events
(hook.completed / hook.failed, tool.call.*, session.*), never decided here. Each hook method is
wrapped on its instance only to see what it returned or raised (and to stop one that never
returns: Hooksmith's safety stop); the runtime alone decides what that means. Nothing here is
imported by the emulation (cayu_call.py) and this imports nothing of it."""
import asyncio
import inspect
import json
import sys
import time
from typing import Any, Callable, Dict, List, Optional

PHASES = ("before_tool_call", "after_tool_call", "after_session_completed",
          "after_session_failed", "after_session_interrupted")
_TERMINAL = {"session.completed": "completed", "session.failed": "error", "session.interrupted": "cancelled"}
_perf_counter = time.perf_counter
_getframe = sys._getframe  # taken before user code runs (a hook may rebind it)


class HooksmithSafetyStop(Exception):
    """Hooksmith's own stop for a hook that never returns (the Cayu runtime has no timeout)."""


class HookNotInstantiated(Exception):
    """A hook class that cannot be instantiated (its __init__ needs arguments): the scenario never plays."""

    def __init__(self, cause: BaseException) -> None:
        super().__init__(str(cause))
        self.cause = cause


def _compact(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def _jsonable(value: Any) -> Any:
    dump = getattr(value, "model_dump", None)
    if callable(dump):
        try:
            return dump(mode="json")
        except Exception:
            pass
    try:
        json.dumps(value)
        return value
    except (TypeError, ValueError):
        return {"repr": repr(value)[:2000], "type": type(value).__name__}


def _context_input(phase: str, ctx: Any) -> Dict[str, Any]:
    """What the hook was handed, read off the runtime's own context object."""
    out: Dict[str, Any] = {"session": {"id": getattr(getattr(ctx, "session", None), "id", None)}}
    if phase.endswith("tool_call"):
        out.update(tool_name=ctx.tool_name, tool_call_id=ctx.tool_call_id, arguments=_jsonable(ctx.arguments))
    if phase == "after_tool_call":
        out["result"] = _jsonable(ctx.result)
    if phase.startswith("after_session"):
        ev = getattr(ctx, "terminal_event", None)
        out["terminal_event"] = {"type": str(getattr(ev, "type", ""))}
    return out


async def _within(awaitable, seconds: float):
    """Awaits the hook in the runtime's own task, as the runtime does (asyncio.timeout, 3.11+): a
    task of its own (wait_for before 3.12) would yield to the loop first, and the other calls of a
    batch, which the runtime runs concurrently, would run their hooks in between — an order the
    runtime alone never plays (corpus: hook-state-batch-of-two)."""
    timeout = getattr(asyncio, "timeout", None)
    if timeout is None:
        return await asyncio.wait_for(awaitable, seconds)
    async with timeout(seconds):
        return await awaitable


class Recorder:
    """What each wrapped hook call did, paired with the runtime's hook event that follows it."""

    def __init__(self, describe: Callable[[BaseException], Dict[str, Any]], safety_s: float, watch=None) -> None:
        self.describe = describe
        # (watchdog, request id): a hook runs in the runtime's tasks, not under the host's own frames;
        # entering it names this request as the one holding the loop when a hook blocks it.
        self.watch = watch
        self.safety_s = safety_s
        self.calls: List[Dict[str, Any]] = []
        self.call_ids: List[str] = []  # the turn's tool call ids, in the order the provider made them
        self.current: Optional[str] = None
        self.running: Optional[str] = None
        self.raised_base: Optional[str] = None  # the hook whose BaseException left it (the run ends)

    def take(self, phase: str, tool_call_id: Any, hook_name: Any) -> Dict[str, Any]:
        """The watched call a hook event reports: the first of its phase and tool call. The calls of a
        batch run concurrently, so their hooks need not start in the order the stream reports them;
        the stream's events hide the call's id, but it reports each call's events together, in
        call order, after its tool.call.started (`current`); one call's hooks run one after another."""
        def same(call):  # an unwatched hook (__slots__) has no call: never take another hook's
            return call["phase"] == phase and call.get("hookName", hook_name) == hook_name

        for i, call in enumerate(self.calls):
            if same(call) and call["before"].get("tool_call_id") == tool_call_id:
                return self.calls.pop(i)
        for i, call in enumerate(self.calls):  # the order of the calls, should the ids not line up
            if same(call):
                return self.calls.pop(i)
        return {}

    def wrap(self, instance: Any, label: str, phase: str) -> None:
        method = getattr(instance, phase)
        recorder = self

        async def watched(ctx):
            call = {"label": label, "phase": phase, "before": _context_input(phase, ctx)}
            if isinstance(getattr(ctx, "hook_name", None), str):
                call["hookName"] = ctx.hook_name
            recorder.calls.append(call)
            recorder.running = label
            frame = _getframe()
            frames = [frame]
            if recorder.watch:
                recorder.watch[0].enter(frame, recorder.watch[1])
            t0 = _perf_counter()
            try:
                value = method(ctx)
                if inspect.isawaitable(value):
                    inner = getattr(value, "cr_frame", None)  # the hook's own frame, below this one
                    if recorder.watch and inner is not None:
                        recorder.watch[0].enter(inner, recorder.watch[1])
                        frames.append(inner)
                    try:
                        value = await _within(value, recorder.safety_s)
                    except asyncio.TimeoutError:
                        call["safetyStop"] = True
                        raise HooksmithSafetyStop(
                            f"{label} did not return within Hooksmith's safety stop ({recorder.safety_s:g} s)") from None
                else:
                    await value  # the runtime awaits what a sync method returned: the same TypeError
                call["returned"] = _jsonable(value)
                call["returnedType"] = type(value).__name__
                return value
            except BaseException as e:  # noqa: B902 - seen, then passed on to the runtime unchanged
                call["raised"] = self.describe(e)
                if not isinstance(e, Exception):
                    recorder.raised_base = label
                raise
            finally:
                call["durationMs"] = round((_perf_counter() - t0) * 1000.0, 3)
                recorder.running = None
                if recorder.watch:
                    for f in frames:
                        recorder.watch[0].leave(f)

        try:
            object.__setattr__(instance, phase, watched)
        except (AttributeError, TypeError):
            pass  # __slots__ without __dict__: the hook runs unwatched (its outcome still comes from the runtime)


def _provider_class(ModelProvider, ModelStreamEvent):
    class ScriptedProvider(ModelProvider):
        """The scenario's completions, one per model call, in order across the conversation."""

        name = "hooksmith-scripted"

        def __init__(self) -> None:
            self.queue: List[Dict[str, Any]] = []
            self.calls = 0  # model calls the runtime made: a turn's iterations

        async def stream(self, request):
            self.calls += 1
            if not self.queue:
                raise RuntimeError("the scenario has no more scripted completions")
            c = self.queue.pop(0)
            if c.get("latency_ms"):
                await asyncio.sleep(c["latency_ms"] / 1000.0)
            if c.get("error") is not None:
                raise RuntimeError(str(c["error"]))
            calls = c.get("tool_calls") or []
            for call in calls:
                yield ModelStreamEvent.tool_call(id=call["id"], name=call["tool_name"], arguments=call.get("tool_args") or {})
            if c.get("text"):
                yield ModelStreamEvent.text_delta(c["text"])
            yield ModelStreamEvent.completed({"finish_reason": "tool_calls" if calls else "stop"})

    return ScriptedProvider


def _mock_tool(cayu, name: str, mock: Dict[str, Any], ran: List[Dict[str, Any]]):
    Tool, ToolResult, ToolSpec = cayu["Tool"], cayu["ToolResult"], cayu["ToolSpec"]

    class MockTool(Tool):
        spec = ToolSpec(name=name, description=f"scenario mock {name}", input_schema={"type": "object"})

        async def run(self, ctx, args):
            ran.append({"tool_name": name, "arguments": _jsonable(args)})
            if mock.get("latency_ms"):
                await asyncio.sleep(mock["latency_ms"] / 1000.0)
            if mock.get("raises") is not None:
                raise RuntimeError(str(mock["raises"]))
            if mock.get("error") is not None:
                return ToolResult(content=str(mock["error"]), is_error=True)
            if "content" in mock:  # already the engine's text (a knowledge search's passages)
                return ToolResult(content=str(mock["content"]))
            value = mock.get("value")
            return ToolResult(content=_compact(value), structured=value if isinstance(value, dict) else None)

    return MockTool()


def _cayu():
    import importlib.metadata as md

    try:  # 0.15 (the layout since 0.9): cayu.runtime and cayu no longer export the hook API
        from cayu import AgentSpec, CayuApp, Message, ResumeRequest, RunRequest
        from cayu.observability import RuntimeHook
        from cayu.sessions import InMemorySessionStore
        from cayu.tools import Tool, ToolPolicy, ToolPolicyDecision, ToolPolicyResult, ToolResult, ToolSpec
    except ImportError:  # 0.3: cayu.core, cayu.runtime
        from cayu.core import AgentSpec, Message
        from cayu.core.tools import Tool, ToolResult, ToolSpec
        from cayu.runtime import (CayuApp, InMemorySessionStore, ResumeRequest, RunRequest, RuntimeHook, ToolPolicy,
                                  ToolPolicyDecision, ToolPolicyResult)
    from cayu.providers import ModelProvider, ModelStreamEvent
    return dict(locals(), version=md.version("cayu"))


def _policy(cayu, denied: Dict[str, str]):
    class DenyPolicy(cayu["ToolPolicy"]):
        async def authorize(self, request):
            reason = denied.get(request.tool_name)
            if reason is not None:
                return cayu["ToolPolicyResult"](decision=cayu["ToolPolicyDecision"].DENY, reason=reason)
            return cayu["ToolPolicyResult"](decision=cayu["ToolPolicyDecision"].ALLOW)

    return DenyPolicy()


def _row(event, recorder: Recorder) -> Optional[Dict[str, Any]]:
    kind, p = str(event.type), dict(event.payload or {})
    if kind in ("hook.completed", "hook.failed"):
        phase = str(p.get("phase"))
        call = recorder.take(phase, recorder.current if phase.endswith("tool_call") else None, p.get("hook_name"))
        row = {"kind": "hook", "hookName": p.get("hook_name"), "scope": p.get("scope"),
               "status": "completed" if kind == "hook.completed" else "failed", **call, "phase": p.get("phase"),
               "hookName": p.get("hook_name")}
        if kind == "hook.failed":
            row["errorType"] = p.get("error_type")
            row["errorMessage"] = p.get("error")
        if p.get("actions"):
            row["actions"] = p["actions"]
        return row
    if kind == "tool.call.started":
        recorder.current = recorder.call_ids.pop(0) if recorder.call_ids else None
    if kind.startswith("tool.call.") and isinstance(p.get("result"), dict):
        return {"kind": "tool", "event": kind, "reason": p.get("reason"), "blockedBy": p.get("blocked_by"),
                "result": p["result"]}
    if kind == "model.text.delta":
        return {"kind": "text", "text": p.get("delta", "")}
    if kind in _TERMINAL:
        return {"kind": "session", "status": _TERMINAL[kind], "type": kind}
    return None


async def play(spec: Dict[str, Any], classes: List[Any], describe, watch=None) -> Dict[str, Any]:
    """Plays the conversation; classes: [(class, label, scope)] in registration order."""
    cayu = _cayu()
    recorder = Recorder(describe, float(spec.get("safetyStopMs") or 120000) / 1000.0, watch)
    app_hooks, agent_hooks = [], []
    for cls, label, scope in classes:
        try:
            instance = cls()  # once per app: the same object serves every call, batch and run
        except Exception as e:  # noqa: B902 - the user's __init__: a load error, not the runtime's
            raise HookNotInstantiated(e) from e
        for phase in PHASES:
            if phase in vars_chain(cls):
                recorder.wrap(instance, f"{label}.{phase}", phase)
        (app_hooks if scope == "app" else agent_hooks).append(instance)
    ran: List[Dict[str, Any]] = []
    tools = [_mock_tool(cayu, n, m, ran) for n, m in (spec.get("tools") or {}).items() if m.get("denied") is None]
    denied = {n: str(m["denied"]) for n, m in (spec.get("tools") or {}).items() if m.get("denied") is not None}
    tools += [_mock_tool(cayu, n, {}, ran) for n in denied]
    provider = _provider_class(cayu["ModelProvider"], cayu["ModelStreamEvent"])()
    store = cayu["InMemorySessionStore"]()
    app = cayu["CayuApp"](session_store=store, **({"runtime_hooks": app_hooks} if app_hooks else {}))
    app.register_provider(provider, default=True)
    app.register_agent(cayu["AgentSpec"](name="assistant", model="scripted"), tools=tools, runtime_hooks=agent_hooks,
                       **({"tool_policy": _policy(cayu, denied)} if denied else {}))
    out: Dict[str, Any] = {"cayu": cayu["version"], "turns": [], "ran": ran}
    max_steps = max(1, min(256, int(spec.get("maxSteps") or 16)))
    for i, turn in enumerate(spec["turns"]):
        provider.queue = list(turn.get("completions") or [])
        recorder.call_ids = [c["id"] for comp in provider.queue for c in (comp.get("tool_calls") or [])]
        users = turn.get("user")  # the turn's user messages: one run's (a resume's) input together
        message = [cayu["Message"].text("user", str(u)) for u in (users if isinstance(users, list) else [users or ""])]
        stream = (app.run(cayu["RunRequest"](agent_name="assistant", session_id="session-1", messages=message, max_steps=max_steps))
                  if i == 0 else app.resume(cayu["ResumeRequest"](session_id="session-1", messages=message, max_steps=max_steps)))
        rows: List[Dict[str, Any]] = []
        played = {"rows": rows, "ranFrom": len(ran)}
        calls_before = provider.calls
        out["turns"].append(played)
        try:
            async for event in stream:
                row = _row(event, recorder)
                if row:
                    rows.append(row)
        except BaseException as e:  # noqa: B902 - a BaseException from a hook ends the run: that is the fact
            played["endedBy"] = type(e).__name__
            played["endedByHook"] = recorder.raised_base or recorder.running
            if not isinstance(e, Exception) or isinstance(e, asyncio.CancelledError):
                out["endedBy"] = type(e).__name__
                out["sessionLeft"] = await _session_status(store)
                break
            played["error"] = describe(e)
            break
        finally:
            played["iterations"] = provider.calls - calls_before
    out["saved"] = await _saved_results(store)
    return out


async def _session_status(store) -> Optional[str]:
    """The stored status of a session whose run raised (interrupted: CancelledError; else left running)."""
    try:
        status = getattr(await store.load("session-1"), "status", None)
    except Exception:  # noqa: B902 - no session was created
        return None
    return None if status is None else str(getattr(status, "value", status))


async def _saved_results(store) -> List[Dict[str, Any]]:
    """The tool results the session's transcript kept, in order (a result it failed to save is not)."""
    try:
        transcript = await store.load_transcript("session-1")
    except Exception:  # noqa: B902 - no session was created (the first run failed before it)
        return []
    return [{"id": part.tool_call_id, "tool_name": part.tool_name, "content": part.content,
             "is_error": bool(part.is_error)}
            for message in transcript for part in (getattr(message, "content", None) or [])
            if type(part).__name__ == "ToolResultPart"]


def vars_chain(cls) -> set:
    """Phase methods a class defines itself or inherits from a base other than cayu's RuntimeHook."""
    names = set()
    for klass in cls.__mro__:
        if klass.__name__ == "RuntimeHook" and klass.__module__.startswith("cayu"):
            break
        names.update(vars(klass))
    return names


async def invoke(req: Dict[str, Any], res: Dict[str, Any], host: Dict[str, Any]) -> Dict[str, Any]:
    """The host's `invoke` of kind cayu-real: loads the agent's hook classes (a new app: fresh
    modules), then plays the scenario under the host's deadline (the hostile-hook guarantees)."""
    spec = req.get("payload") if isinstance(req.get("payload"), dict) else {}
    cache, send, rid, baseline = host["cache"], host["send"], req.get("id"), host["baseline"]
    stale = baseline.stale()  # a new app: the process as a fresh start of the engine would find it
    if stale:
        return {**res, "status": "host-stale", "message": "; ".join(stale)}
    baseline.restore(cache.current_root)
    # Importing the runtime is the engine's start, neither the hooks' time nor their module's import:
    # it runs before `loading` arms the module's load budget, under the scenario's deadline (a slow
    # cold import of cayu inside that budget timed the module out and restarted the host).
    try:
        _cayu()
    except BaseException as e:  # noqa: B902 - a cayu without the runtime's API (another layout, a stub)
        return {**res, "status": "returned", "value": {"unavailable": f"{type(e).__name__}: {e}"},
                "valueType": {"name": "CayuRealSession", "module": __name__, "qualname": "CayuRealSession"}}
    send({"id": rid, "event": "loading"})
    classes = []
    for i, h in enumerate(spec.get("hooks") or []):
        name, path, load = cache.plan(str(req["agentRoot"]), str(h["file"]), i > 0)
        try:
            mod = cache.by_path[path] if load == "cached" else cache.load(name, path)
            cls = mod
            for part in str(h["className"]).split("."):
                cls = getattr(cls, part)
        except BaseException as e:  # noqa: B902
            cache.forget()
            return {**res, "status": "load-error", "stage": "import", "exception": host["describe"](e)}
        classes.append((cls, str(h["label"]), str(h.get("scope") or "agent")))
    baseline.capture()  # what the imports set up is the modules', kept for the cases after
    send({"id": rid, "event": "started"})
    (outcome, value, _sync), duration = await host["run_body"](
        lambda: play(spec, classes, host["describe"], (host["watchdog"](), rid)), float(req.get("timeoutMs") or 0), rid,
        holder=False)  # the runtime's own code blocking the loop is not a hook: only a hook's frame names rid
    send({"id": rid, "event": "ended"})
    res["durationMs"] = round(duration, 3)
    if outcome == "timeout":  # each hook has its own safety stop (Recorder): the runtime's own time ran out
        return {**res, "status": "timed-out", "killed": False, "timeoutMs": req.get("timeoutMs"), "during": "runtime"}
    if outcome == "err" and isinstance(value, HookNotInstantiated):
        return {**res, "status": "load-error", "stage": "instantiate", "exception": host["describe"](value.cause)}
    if outcome == "err":
        return {**res, "status": "raised", "exception": host["describe"](value)}
    return {**res, "status": "returned", "value": value,
            "valueType": {"name": "CayuRealSession", "module": __name__, "qualname": "CayuRealSession"}}
