"""Annotation faults: the engine checks payload and return types at train time."""
from rasa.mantle.hooks import (
    KnowledgeQueryPayload,
    KnowledgeResultsPayload,
    ToolCallPayload,
    modify_knowledge_query,
    on_tool_result,
)


@on_tool_result()
async def audit_result(result: ToolCallPayload) -> None:  # payload-annotation
    return None  # hooksmith: ignore[blocking-call]  # unused-suppression


@modify_knowledge_query()
async def expand(payload: KnowledgeQueryPayload) -> KnowledgeResultsPayload:  # return-annotation
    return payload

import no_such_module  # import-error
