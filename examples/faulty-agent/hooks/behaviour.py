"""Behaviour faults: signals, read-only fields, settings, observers, returns, blocking calls,
a tool result read as a dict."""
import time

from rasa.mantle.hooks import (
    KnowledgeResultsPayload,
    ModelRequestPayload,
    ModelResponsePayload,
    RetryModel,
    ToolResultPayload,
    modify_model_request,
    modify_model_response,
    modify_tool_result,
    on_knowledge_results,
    on_model_response,
    on_tool_result,
)


@modify_tool_result()
async def retry_on_error(result: ToolResultPayload) -> ToolResultPayload:
    if result.is_error:
        raise RetryModel("try another tool")  # unsupported-control-signal
    return result


@modify_model_request()
async def tune(request: ModelRequestPayload) -> ModelRequestPayload:
    return request.model_copy(
        update={
            "tool_names": [],  # readonly-field-write
            "model_settings": {"api_key": "sk-123"},  # model-settings-key
        }
    )


@on_model_response()
async def scrub(response: ModelResponsePayload) -> None:
    response.text = ""  # observe-mutation


@modify_model_response()
async def trim(response: ModelResponsePayload) -> ModelResponsePayload:  # missing-return
    if response.text:
        return response.model_copy(update={"text": response.text.strip()})


@on_knowledge_results()
async def slow_log(payload: KnowledgeResultsPayload) -> None:
    time.sleep(0.5)  # blocking-call


@on_tool_result()
async def count_rows(result: ToolResultPayload) -> None:
    if isinstance(result.value, dict):  # tool-result-value-is-text
        return None
