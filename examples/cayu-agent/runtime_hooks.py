"""Cayu runtime hooks of a support agent: a per-app tool quota, redaction of results, a session audit.

The runtime registers each hook *instance* once and calls it for every tool call, batch and run of
the app, so the quota counts across the whole conversation."""
import logging
import re

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

logger = logging.getLogger(__name__)

MAX_CALLS = 2
EMAIL = re.compile(r"[\w.+-]+@[\w-]+\.[\w.]+")


class ToolQuota(RuntimeHook):
    """Allows MAX_CALLS tool calls per app; blocks the ones after."""

    def __init__(self) -> None:
        self.calls = 0

    async def before_tool_call(self, context: BeforeToolCallHookContext) -> BeforeToolCallDecision | None:
        self.calls += 1
        if self.calls > MAX_CALLS:
            return BeforeToolCallDecision(action="block", block_reason=f"tool quota of {MAX_CALLS} calls used up")
        return None


class RedactEmails(RuntimeHook):
    """Replaces e-mail addresses in tool results."""

    async def after_tool_call(self, context: ToolCallHookContext) -> AfterToolCallDecision | None:
        content = context.result.content
        cleaned = EMAIL.sub("<email>", content)
        if context.result.is_error or cleaned == content:
            return None
        return AfterToolCallDecision(action="modify", modified_result=ToolResult(content=cleaned))


class SessionAudit(RuntimeHook):
    """Counts the runs of the session that completed."""

    def __init__(self) -> None:
        self.completed = 0

    async def after_session_completed(self, context: RuntimeHookContext) -> None:
        self.completed += 1
        print(f"session {context.session.id} completed ({self.completed})")
