"""Tool hooks: guard calls before dispatch, redact PII from results."""
import json
import logging

from lib.pii import redact
from rasa.mantle.hooks import (
    RetryModel,
    ToolCallPayload,
    ToolResultPayload,
    modify_tool_call,
    modify_tool_result,
    on_tool_call,
    on_tool_result,
)

logger = logging.getLogger(__name__)


@on_tool_call()
async def audit_call(call: ToolCallPayload) -> None:
    logger.info("tool call %s by %s", call.tool_name, call.sender_id)


@modify_tool_call()
async def guard_orders(call: ToolCallPayload) -> ToolCallPayload:
    if call.tool_name == "place_order" and not call.arguments.get("card_id"):
        raise RetryModel(feedback="Call place_order with a card_id.")
    if call.tool_name == "place_order":
        card_id = str(call.arguments["card_id"]).strip()
        return call.model_copy(update={"arguments": {**call.arguments, "card_id": card_id}})
    return call


@on_tool_result()
async def audit_result(result: ToolResultPayload) -> None:
    logger.info("tool result %s error=%s", result.tool_name, result.is_error)


@modify_tool_result()
async def redact_pii(result: ToolResultPayload) -> ToolResultPayload:
    if result.tool_name != "lookup_customer":
        return result
    # `value` arrives as serialized JSON text, not a dict.
    try:
        data = json.loads(result.value)
    except ValueError:
        return result.model_copy(update={"value": redact(result.value)})
    cleaned = {key: redact(str(val)) for key, val in data.items()} if isinstance(data, dict) else data
    safe_args = {k: v for k, v in result.arguments.items() if k != "ssn"}
    return result.model_copy(update={"value": json.dumps(cleaned), "arguments": safe_args})
