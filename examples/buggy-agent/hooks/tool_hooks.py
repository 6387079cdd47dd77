"""Tool hooks that pass `hooksmith check` but not their tests (see README, "The buggy example")."""
import re

from rasa.mantle.hooks import (
    RetryModel,
    ToolCallPayload,
    ToolResultPayload,
    modify_tool_call,
    modify_tool_result,
)

EMAIL = re.compile(r"[\w.+-]+@[\w-]+\.[\w.]+")


@modify_tool_call()
async def guard_delete(call: ToolCallPayload) -> ToolCallPayload:
    # Bug: the tool is called delete_account, so this guard never fires.
    if call.tool_name == "delete-account":
        raise RetryModel(feedback="Account deletion needs a human agent.")
    return call


@modify_tool_result()
async def redact_email(result: ToolResultPayload) -> ToolResultPayload:
    # Bug: redacts the result text but forgets the arguments, which are persisted too.
    return result.model_copy(update={"value": EMAIL.sub("[email]", result.value)})
