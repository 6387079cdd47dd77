"""More Cayu faults: a blank hook name, a reserved event type, a phase returning no decision."""
from cayu.observability import RuntimeHook, ToolCallHookContext


class Audit(RuntimeHook):
    name = ""  # cayu-hook-name

    async def after_tool_call(self, context: ToolCallHookContext) -> None:
        await context.emit_custom_event("custom.cayu.audit")  # cayu-custom-event-type
        return {"action": "pass_through"}  # cayu-phase-return
