"""Turn observers that pass `hooksmith check` but not their tests (see README, "The buggy example")."""
import asyncio

from rasa.mantle.hooks import TurnFinishedPayload, on_turn_finished


@on_turn_finished()
async def slow_audit(payload: TurnFinishedPayload) -> None:
    # Bug: an observer has 100 ms; this one waits for a slow audit service.
    await asyncio.sleep(0.3)
