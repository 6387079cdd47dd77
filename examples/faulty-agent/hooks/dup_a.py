"""One half of a duplicate modify registration (the other is in dup_b.py)."""
from rasa.mantle.hooks import ToolCallPayload, modify_tool_call


@modify_tool_call()  # duplicate-modify-hook
async def guard_a(call: ToolCallPayload) -> ToolCallPayload:
    return call
