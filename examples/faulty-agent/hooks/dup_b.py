"""The other half of the duplicate modify registration."""
from rasa.mantle.hooks import ToolCallPayload, modify_tool_call


@modify_tool_call()  # duplicate-modify-hook
async def guard_b(call: ToolCallPayload) -> ToolCallPayload:
    return call
