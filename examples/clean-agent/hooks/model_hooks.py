"""Model request/response hooks: cool the model down, keep answers grounded."""
import logging

from rasa.mantle.hooks import (
    ModelRequestPayload,
    ModelResponsePayload,
    RetryModel,
    modify_model_request,
    modify_model_response,
    on_model_request,
    on_model_response,
)

logger = logging.getLogger(__name__)

FORBIDDEN_TOOLS = {"place_order_without_review"}


@on_model_request()
async def log_request(request: ModelRequestPayload) -> None:
    logger.debug(
        "model request: %d messages, %d tools, iteration %d",
        len(request.messages),
        len(request.tool_names),
        request.iteration,
    )


@modify_model_request(timeout_ms=800)
async def cool_down(request: ModelRequestPayload) -> ModelRequestPayload:
    # Only allow-listed keys: anything else would be ignored by the engine.
    return request.model_copy(
        update={
            "model_settings": {"temperature": 0.2, "max_tokens": 600, "stop": ["\nUser:"]},
        }
    )


@on_model_response()
async def audit_response(response: ModelResponsePayload) -> None:
    logger.debug(
        "model response: text=%s tool_calls=%d latency_ms=%s",
        bool(response.text),
        len(response.tool_calls),
        response.latency_ms,
    )


@modify_model_response()
async def require_grounding(response: ModelResponsePayload) -> ModelResponsePayload:
    allowed = [call for call in response.tool_calls if call.get("tool_name") not in FORBIDDEN_TOOLS]
    if len(allowed) != len(response.tool_calls):
        return response.model_copy(update={"tool_calls": allowed})
    if response.text and "according to" not in response.text.lower():
        raise RetryModel("Only make claims supported by the retrieved passages.")
    if response.text:
        return response.model_copy(update={"text": response.text.strip()})
    return response
