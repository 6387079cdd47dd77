"""Knowledge search hooks: expand short queries, drop weak passages."""
import logging

from rasa.mantle.hooks import (
    KnowledgeQueryPayload,
    KnowledgeResultsPayload,
    modify_knowledge_query,
    modify_knowledge_results,
    on_knowledge_query,
    on_knowledge_results,
)

logger = logging.getLogger(__name__)

MIN_SCORE = 0.2


@on_knowledge_query()
async def log_query(payload: KnowledgeQueryPayload) -> None:
    logger.debug("knowledge query %r", payload.query)


@modify_knowledge_query()
async def expand_query(payload: KnowledgeQueryPayload) -> KnowledgeQueryPayload:
    query = payload.query.strip()
    if query.isdigit():
        query = f"ticket {query}"
    return payload.model_copy(update={"query": query})


@on_knowledge_results()
async def log_results(payload: KnowledgeResultsPayload) -> None:
    logger.debug("knowledge results: %d passages", len(payload.passages))


@modify_knowledge_results()
async def drop_low_scores(payload: KnowledgeResultsPayload) -> KnowledgeResultsPayload:
    passages = [p for p in payload.passages if float(p.get("score") or 0.0) >= MIN_SCORE]
    return payload.model_copy(update={"passages": passages})
