"""Turn timing: observers around each Mantle turn (single-file layout beside hooks/)."""
import logging
import time

from rasa.mantle.hooks import (
    TurnFinishedPayload,
    TurnStartedPayload,
    on_turn_finished,
    on_turn_started,
)

logger = logging.getLogger(__name__)

# Process-local timing only: observers must not mutate tracker or engine state.
_started_at: dict[str, float] = {}


@on_turn_started()
async def mark_start(payload: TurnStartedPayload) -> None:
    _started_at[payload.sender_id] = time.monotonic()
    logger.debug("turn started sender=%s voice=%s", payload.sender_id, payload.is_voice)


@on_turn_finished()
async def mark_end(payload: TurnFinishedPayload) -> None:
    started = _started_at.pop(payload.sender_id, None)
    duration_ms = None if started is None else round((time.monotonic() - started) * 1000)
    logger.info("turn finished status=%s duration_ms=%s", payload.status, duration_ms)
