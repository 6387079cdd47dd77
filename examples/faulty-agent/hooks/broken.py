"""A syntax error: nothing else in this file can be checked."""
from rasa.mantle.hooks import TurnFinishedPayload, on_turn_finished


@on_turn_finished()
async def done(payload: TurnFinishedPayload) -> None:
    if payload.status == "error"  # syntax-error
        return None
