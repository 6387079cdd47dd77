"""Cayu runtime hooks: guard tool calls and shape their results; audit session ends."""
import logging

from cayu import ToolResult

try:  # cayu 0.9 and newer (0.15, what pip installs today): the hook API is in cayu.observability
    from cayu.observability import (
        AfterToolCallDecision,
        BeforeToolCallDecision,
        BeforeToolCallHookContext,
        RuntimeHook,
        RuntimeHookContext,
        ToolCallHookContext,
    )
except ImportError:  # cayu 0.3
    from cayu import (
        AfterToolCallDecision,
        BeforeToolCallDecision,
        BeforeToolCallHookContext,
        RuntimeHook,
        RuntimeHookContext,
        ToolCallHookContext,
    )

from lib.pii import redact

logger = logging.getLogger(__name__)

MAX_PAGE_SIZE = 50


class ToolGuard(RuntimeHook):
    """Blocks destructive tools, caps page sizes, redacts PII from results."""

    async def before_tool_call(self, context: BeforeToolCallHookContext) -> BeforeToolCallDecision | None:
        if context.tool_name == "delete_account":
            return BeforeToolCallDecision(action="block", block_reason="Account deletion needs a human agent.")
        if context.tool_name == "weather" and context.arguments.get("city") == "test":
            return BeforeToolCallDecision(
                action="short_circuit",
                synthetic_result=ToolResult(content="sunny, 21 degrees"),
            )
        page_size = context.arguments.get("page_size")
        if isinstance(page_size, int) and page_size > MAX_PAGE_SIZE:
            arguments = dict(context.arguments)
            arguments["page_size"] = MAX_PAGE_SIZE
            return BeforeToolCallDecision(action="proceed_modified", modified_arguments=arguments)
        return None

    async def after_tool_call(self, context: ToolCallHookContext) -> AfterToolCallDecision | None:
        if context.result.is_error:
            return None
        cleaned = redact(context.result.content)
        if cleaned == context.result.content:
            return AfterToolCallDecision(action="pass_through")
        return AfterToolCallDecision(
            action="modify",
            modified_result=ToolResult(content=cleaned, structured=context.result.structured),
        )


class SessionAudit(RuntimeHook):
    """Logs how each session ended."""

    async def after_session_completed(self, context: RuntimeHookContext) -> None:
        logger.info("session %s completed", context.session)

    async def after_session_failed(self, context: RuntimeHookContext) -> None:
        logger.warning("session %s failed: %s", context.session, context.terminal_event)

    async def after_session_interrupted(self, context: RuntimeHookContext) -> None:
        logger.info("session %s interrupted", context.session)
