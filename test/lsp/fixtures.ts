// Real hook code for the language-server tests.
export const GOOD_HOOKS = `from rasa.mantle.hooks import (
    ToolCallPayload,
    modify_tool_call,
    on_turn_started,
)


@on_turn_started()
async def log_turn(payload) -> None:
    print(payload.sender_id)


@modify_tool_call(timeout_ms=250)
async def trim_args(call: ToolCallPayload) -> ToolCallPayload:
    return call.model_copy(update={"arguments": dict(call.arguments)})
`;

/** A modify_tool_call hook, as a second module of the same agent. */
export const SECOND_MODIFY = `from rasa.mantle.hooks import ToolCallPayload, modify_tool_call


@modify_tool_call()
async def other(call: ToolCallPayload) -> ToolCallPayload:
    return call
`;

export const CAYU_HOOK = `from cayu.observability import BeforeToolCallDecision, BeforeToolCallHookContext, RuntimeHook


class Guard(RuntimeHook):
    async def before_tool_call(self, context: BeforeToolCallHookContext) -> BeforeToolCallDecision | None:
        return None
`;
