// Shared source snippets for the cayu-* rule tests.
import { py } from './helpers';
export const IMPORTS = `from cayu.observability import (
    AfterToolCallDecision,
    BeforeToolCallDecision,
    BeforeToolCallHookContext,
    RuntimeHook,
    RuntimeHookContext,
    ToolCallHookContext,
    ToolResult,
)
`;

/** A correct hook overriding all five phases. */
export const CLEAN_HOOK = `${IMPORTS}

class Guard(RuntimeHook):
    async def before_tool_call(self, context: BeforeToolCallHookContext) -> BeforeToolCallDecision | None:
        if context.tool_name == "delete_account":
            return BeforeToolCallDecision(action="block", block_reason="needs a human")
        args = dict(context.arguments)
        args["limit"] = 10
        return BeforeToolCallDecision(action="proceed_modified", modified_arguments=args)

    async def after_tool_call(self, context: ToolCallHookContext) -> AfterToolCallDecision | None:
        if context.result.is_error:
            return AfterToolCallDecision(action="modify", modified_result=ToolResult(content="try later"))
        return None

    async def after_session_completed(self, context: RuntimeHookContext) -> None:
        return None

    async def after_session_failed(self, context: RuntimeHookContext) -> None:
        pass

    async def after_session_interrupted(self, context: RuntimeHookContext) -> None:
        pass
`;

/** A hook class with one method whose text is given (indented by 4). */
export function hookWith(method: string, imports = IMPORTS): string {
  const body = method
    .split('\n')
    .map((l) => (l ? '    ' + l : l))
    .join('\n');
  return `${imports}\n\nclass H(RuntimeHook):\n${body}\n`;
}

/**
 * One module with a fault of each kind the cayu-arguments-mutation, cayu-signature and
 * cayu-unknown-phase tables name: each table lists only its own rule's errors in it.
 */
export const CAYU_FAULTS = py`
    from cayu.observability import BeforeToolCallDecision, BeforeToolCallHookContext, RuntimeHook


    class Guard(RuntimeHook):
        async def before_tool_call(self) -> None:
            return None

        async def after_tool_call(self, context, extra, *, flag) -> None:
            context.arguments = {}
            return None

        async def after_session_completed(self, context) -> None:
            args = context.arguments
            args.update({"a": 1})
            BeforeToolCallDecision("block")
            BeforeToolCallDecision(action="blok", reason="x")
            BeforeToolCallDecision(action="proceed", block_reason="x")
            BeforeToolCallDecision(action="block", block_reason=" ")
            BeforeToolCallDecision(action="zzzzzzzz", zzzzzzzzzzz=1)
            BeforeToolCallDecision()
            return None

        async def before_zzzzzzzz(self, context) -> None:
            return None
`;
