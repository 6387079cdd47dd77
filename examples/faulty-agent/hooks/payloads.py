"""Payload faults: a field the payload does not have, a modify hook returning an unvalidated model."""
from rasa.mantle.hooks import (
    KnowledgeQueryPayload,
    KnowledgeResultsPayload,
    modify_knowledge_results,
    on_knowledge_query,
)


@on_knowledge_query()
async def log_query(payload: KnowledgeQueryPayload) -> None:
    print(payload.querry)  # unknown-attribute


@modify_knowledge_results()
async def top_three(payload: KnowledgeResultsPayload) -> KnowledgeResultsPayload:
    return KnowledgeResultsPayload.model_construct(passages=payload.passages[:3])  # model-construct-return
