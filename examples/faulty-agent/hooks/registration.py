"""Registration faults: decorators, async, arity, timeouts, unwired points."""
import rasa.mantle.hooks as mh
from rasa.mantle.hooks import (
    IncomingMessagePayload,
    ModelRequestPayload,
    ToolCallPayload,
    TurnFinishedPayload,
    TurnStartedPayload,
    on_incoming_message,
    on_model_request,
    on_tool_call,
    on_turn_finished,
    on_turn_started,
)


@mh.on_turn_begin()  # unknown-hook-point
async def begin(payload: TurnStartedPayload) -> None:
    return None


@on_turn_started  # missing-parentheses
async def started(payload: TurnStartedPayload) -> None:
    return None


@on_turn_finished()
def finished(payload: TurnFinishedPayload) -> None:  # sync-handler
    return None


@on_model_request()
async def log_request(request: ModelRequestPayload, verbose: bool) -> None:  # wrong-arity
    return None


@on_tool_call(timeout_ms=-5)  # invalid-timeout
async def audit_call(call: ToolCallPayload) -> None:
    return None


@on_incoming_message()  # not-wired
async def log_incoming(message: IncomingMessagePayload) -> None:
    return None
