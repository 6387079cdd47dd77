"""Text hooks: authored and validated today, not yet invoked by the engine (not-wired)."""
import logging

from rasa.mantle.hooks import (
    HookRejection,
    IncomingMessagePayload,
    OutgoingTextPayload,
    modify_incoming_message,
    modify_outgoing_text,
    on_incoming_message,
    on_outgoing_text,
)

logger = logging.getLogger(__name__)


@on_incoming_message()
async def log_incoming(message: IncomingMessagePayload) -> None:
    logger.debug("incoming message of %d characters", len(message.text))


@modify_incoming_message()
async def drop_spam(message: IncomingMessagePayload) -> IncomingMessagePayload:
    if "buy followers" in message.text.lower():
        raise HookRejection(reason="spam detected")
    return message


@on_outgoing_text()
async def log_outgoing(payload: OutgoingTextPayload) -> None:
    logger.debug("outgoing text of %d characters", len(payload.text))


@modify_outgoing_text()
async def tidy_outgoing(payload: OutgoingTextPayload) -> OutgoingTextPayload:
    return payload.model_copy(update={"text": payload.text.strip()})
