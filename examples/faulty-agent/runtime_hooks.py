"""Faulty Cayu runtime hooks: one fault per cayu-* code."""
from cayu.observability import (
    AfterToolCallDecision,
    BeforeToolCallDecision,
    BeforeToolCallHookContext,
    RuntimeHook,
    RuntimeHookContext,
    ToolCallHookContext,
)


class FaultyGuard(RuntimeHook):
    async def before_tool_call(self, context: BeforeToolCallHookContext) -> BeforeToolCallDecision | None:
        context.arguments["page_size"] = 10  # cayu-arguments-mutation
        if context.tool_name == "delete_account":
            return BeforeToolCallDecision(action="block")  # cayu-decision-fields
        return None

    async def after_tool_call(self, context: ToolCallHookContext) -> dict:  # cayu-return-annotation
        return None

    def after_session_completed(self, context: RuntimeHookContext) -> None:  # cayu-sync-method
        return None

    async def after_session_failed(self, context: ToolCallHookContext) -> None:  # cayu-signature
        return None

    async def after_session_interupted(self, context: RuntimeHookContext) -> None:  # cayu-unknown-phase
        return None


class LateDecision(RuntimeHook):
    async def after_tool_call(self, context: ToolCallHookContext) -> AfterToolCallDecision | None:
        return AfterToolCallDecision(action="modify")  # cayu-decision-fields
