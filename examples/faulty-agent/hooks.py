"""Faulty on purpose: every line marked with a code is what `hooksmith check` reports."""
from rasa.mantle.hooks import (
    TurnStartedPayload,
    on_turn_start,  # unknown-import
    on_turn_started,
)


@on_turn_started()
async def greet(payload: TurnStartedPayload) -> None:
    return None


GREETING_LIMIT = MAX_GREETINGS  # undefined-name
