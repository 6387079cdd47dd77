// Generated hook modules of a given size for benchmarks: realistic hooks (imports, typed
// observe and modify hooks, model_copy updates, raises, helpers), unique names throughout.
const HEADER = `"""Generated benchmark hook module."""
from __future__ import annotations

import asyncio
import json
import logging

from rasa.mantle.hooks import (
    ModelRequestPayload,
    ModelResponsePayload,
    RetryModel,
    ToolCallPayload,
    ToolResultPayload,
    TurnFinishedPayload,
    modify_model_request,
    modify_model_response,
    modify_tool_call,
    modify_tool_result,
    on_model_request,
    on_tool_call,
    on_tool_result,
    on_turn_finished,
)

logger = logging.getLogger(__name__)
`;

const MODIFY_HOOKS = `

@modify_model_request(timeout_ms=400)
async def cool_down(request: ModelRequestPayload) -> ModelRequestPayload:
    messages = [m for m in request.messages if m.get("role") != "debug"]
    return request.model_copy(update={"messages": messages, "model_settings": {"temperature": 0.2, "max_tokens": 512}})


@modify_model_response()
async def ground(response: ModelResponsePayload) -> ModelResponsePayload:
    if response.text and "according to" not in response.text.lower():
        raise RetryModel("Only answer from retrieved passages.")
    return response


@modify_tool_call()
async def guard(call: ToolCallPayload) -> ToolCallPayload:
    if call.tool_name == "place_order" and not call.arguments.get("card_id"):
        raise RetryModel(feedback="Call place_order with a card_id.")
    return call.model_copy(update={"arguments": {**call.arguments, "checked": True}})


@modify_tool_result()
async def redact(result: ToolResultPayload) -> ToolResultPayload:
    data = json.loads(result.value)
    data.pop("ssn", None)
    return result.model_copy(update={"value": json.dumps(data)})
`;

function observerBlock(i: number): string {
  return `

@on_tool_result()
async def audit_result_${i}(result: ToolResultPayload) -> None:
    logger.debug("tool %s finished (error=%s)", result.tool_name, result.is_error)


@on_tool_call(timeout_ms=50)
async def audit_call_${i}(call: ToolCallPayload) -> None:
    if call.tool_name.startswith("internal_"):
        logger.info("internal tool %s", call.tool_name)


def helper_${i}(values: list[int]) -> int:
    total = 0
    for value in values:
        if value % 2 == 0:
            total += value
        else:
            total -= value
    return total


@on_turn_finished()
async def finished_${i}(payload: TurnFinishedPayload) -> None:
    await asyncio.sleep(0)
    logger.info("turn %s finished: %s", payload.turn_id, payload.status)
`;
}

/** A hook module of about `lines` lines. */
export function hookModuleSource(lines: number): string {
  const parts = [HEADER + MODIFY_HOOKS];
  let count = parts[0].split('\n').length;
  // Counted per block: re-splitting the whole text after each block would be quadratic.
  for (let i = 0; count < lines; i++) {
    const block = observerBlock(i);
    parts.push(block);
    count += block.split('\n').length - 1;
  }
  return parts.join('');
}
