// The working examples of spec/mantle-hooks.md, verbatim (each block one hook module).
// Regression fixture: the engine accepts them, so no Mantle rule may report an error or warning on them.
export const SPEC_EXAMPLES: readonly { path: string; source: string }[] = [
  {
    path: 'hooks/redact_pii.py',
    source:
      'from rasa.mantle.hooks import (\n    HookRejection,\n    IncomingMessagePayload,\n    ModelRequestPayload,\n    ModelResponsePayload,\n    RetryModel,\n    ToolResultPayload,\n    TurnFinishedPayload,\n    modify_incoming_message,\n    modify_model_request,\n    modify_model_response,\n    on_tool_result,\n    on_turn_finished,\n)\n\n\n@modify_model_request()\nasync def redact_pii(request: ModelRequestPayload) -> ModelRequestPayload:\n    return request.model_copy(update={"messages": request.messages})\n\n\n@modify_model_response()\nasync def steer_or_drop(response: ModelResponsePayload) -> ModelResponsePayload:\n    raise RetryModel(feedback="Only answer from retrieved passages.")\n\n\n@modify_incoming_message()\nasync def drop_spam(message: IncomingMessagePayload) -> IncomingMessagePayload:\n    if "spam" in message.text.lower():\n        raise HookRejection(reason="spam detected")\n    return message\n\n\n@on_tool_result()\nasync def audit(result: ToolResultPayload) -> None:\n    return None\n\n\n@on_turn_finished()\nasync def mark_done(payload: TurnFinishedPayload) -> None:\n    return None\n',
  },
  {
    path: 'hooks/rewrite_knowledge_search.py',
    source:
      'import structlog\n\nfrom rasa.mantle.hooks import (\n    KnowledgeQueryPayload,\n    KnowledgeResultsPayload,\n    modify_knowledge_query,\n    modify_knowledge_results,\n    on_knowledge_query,\n)\n\nstructlogger = structlog.get_logger()\n\n\n@on_knowledge_query()\nasync def log_query(payload: KnowledgeQueryPayload) -> None:\n    structlogger.debug(\n        "hook.knowledge_query.observed",\n        query=payload.query,\n        sender_id=payload.sender_id,\n    )\n\n\n@modify_knowledge_query()\nasync def expand_query(payload: KnowledgeQueryPayload) -> KnowledgeQueryPayload:\n    # Example: normalize short ticket-style queries before search.\n    query = payload.query.strip()\n    if query.isdigit():\n        query = f"ticket {query}"\n    return payload.model_copy(update={"query": query})\n\n\n@modify_knowledge_results()\nasync def drop_low_scores(\n    payload: KnowledgeResultsPayload,\n) -> KnowledgeResultsPayload:\n    passages = [\n        passage\n        for passage in payload.passages\n        if float(passage.get("score") or 0.0) >= 0.2\n    ]\n    return payload.model_copy(update={"passages": passages})\n',
  },
  {
    path: 'hooks.py',
    source:
      'from rasa.mantle.hooks import OutgoingTextPayload, modify_outgoing_text\n\n\n@modify_outgoing_text()\nasync def rewrite(payload: OutgoingTextPayload) -> OutgoingTextPayload:\n    return payload.model_copy(update={"text": payload.text.strip()})\n',
  },
  {
    path: 'hooks/turn_timing.py',
    source:
      'import time\n\nimport structlog\n\nfrom rasa.mantle.hooks import (\n    TurnFinishedPayload,\n    TurnStartedPayload,\n    on_turn_finished,\n    on_turn_started,\n)\n\nstructlogger = structlog.get_logger()\n\n# Process-local timing only \u2014 observers must not mutate tracker/engine state.\n_started_at: dict[str, float] = {}\n\n\n@on_turn_started()\nasync def mark_start(payload: TurnStartedPayload) -> None:\n    _started_at[payload.sender_id] = time.monotonic()\n    structlogger.debug(\n        "hook.turn.started",\n        sender_id=payload.sender_id,\n        is_voice=payload.is_voice,\n        channel=payload.channel.name,\n    )\n\n\n@on_turn_finished()\nasync def mark_end(payload: TurnFinishedPayload) -> None:\n    started = _started_at.pop(payload.sender_id, None)\n    duration_ms = (\n        None if started is None else round((time.monotonic() - started) * 1000)\n    )\n    structlogger.info(\n        "hook.turn.finished",\n        sender_id=payload.sender_id,\n        status=payload.status,\n        duration_ms=duration_ms,\n        channel=payload.channel.name,\n    )\n',
  },
  {
    path: 'hooks/lower_temperature.py',
    source:
      'import structlog\n\nfrom rasa.mantle.hooks import ModelRequestPayload, modify_model_request, on_model_request\n\nstructlogger = structlog.get_logger()\n\n\n@on_model_request()\nasync def log_request(request: ModelRequestPayload) -> None:\n    # Observe lane: fire-and-forget; mutations have no effect.\n    structlogger.debug(\n        "hook.model_request.observed",\n        message_count=len(request.messages),\n        tool_count=len(request.tool_names),\n        iteration=request.iteration,\n        sender_id=request.sender_id,\n    )\n\n\n@modify_model_request()\nasync def cool_down(request: ModelRequestPayload) -> ModelRequestPayload:\n    return request.model_copy(\n        update={\n            "messages": request.messages,\n            "model_settings": {"temperature": 0.2},\n        }\n    )\n',
  },
  {
    path: 'hooks/ground_answers.py',
    source:
      'import structlog\n\nfrom rasa.mantle.hooks import (\n    ModelResponsePayload,\n    RetryModel,\n    modify_model_response,\n    on_model_response,\n)\n\nstructlogger = structlog.get_logger()\n\n\n@on_model_response()\nasync def audit(response: ModelResponsePayload) -> None:\n    structlogger.debug(\n        "hook.model_response.observed",\n        has_text=bool(response.text),\n        tool_call_count=len(response.tool_calls),\n        latency_ms=response.latency_ms,\n        sender_id=response.sender_id,\n    )\n\n\n@modify_model_response()\nasync def require_grounding(response: ModelResponsePayload) -> ModelResponsePayload:\n    # Drop tool calls the policy forbids before any dispatch.\n    allowed = [\n        call\n        for call in response.tool_calls\n        if call.get("tool_name") != "place_order"\n    ]\n    if len(allowed) != len(response.tool_calls):\n        return response.model_copy(update={"tool_calls": allowed})\n\n    # Steer another iteration when the text answer is ungrounded.\n    if response.text and "according to" not in response.text.lower():\n        raise RetryModel(\n            feedback="Only make claims supported by the retrieved passages."\n        )\n\n    # Optional rewrite of user-visible text before emit.\n    if response.text:\n        return response.model_copy(update={"text": response.text.strip()})\n    return response\n',
  },
  {
    path: 'hooks/guard_tool_calls.py',
    source:
      'import structlog\n\nfrom rasa.mantle.hooks import (\n    RetryModel,\n    ToolCallPayload,\n    modify_tool_call,\n    on_tool_call,\n)\n\nstructlogger = structlog.get_logger()\n\n\n@on_tool_call()\nasync def audit_call(call: ToolCallPayload) -> None:\n    structlogger.debug(\n        "hook.tool_call.observed",\n        tool_name=call.tool_name,\n        sender_id=call.sender_id,\n    )\n\n\n@modify_tool_call()\nasync def normalize_and_steer(call: ToolCallPayload) -> ToolCallPayload:\n    if call.tool_name == "place_order" and not call.arguments.get("card_id"):\n        raise RetryModel(feedback="Call place_order with a card_id.")\n    if call.tool_name == "place_order":\n        return call.model_copy(\n            update={\n                "arguments": {\n                    **call.arguments,\n                    "card_id": str(call.arguments["card_id"]).strip(),\n                }\n            }\n        )\n    return call\n',
  },
  {
    path: 'hooks/redact_tool_results.py',
    source:
      'import structlog\n\nfrom rasa.mantle.hooks import (\n    ToolResultPayload,\n    modify_tool_result,\n    on_tool_result,\n)\n\nstructlogger = structlog.get_logger()\n\n\n@on_tool_result()\nasync def audit_result(result: ToolResultPayload) -> None:\n    structlogger.debug(\n        "hook.tool_result.observed",\n        tool_name=result.tool_name,\n        is_error=result.is_error,\n        sender_id=result.sender_id,\n    )\n\n\n@modify_tool_result()\nasync def redact_pii(result: ToolResultPayload) -> ToolResultPayload:\n    if result.tool_name != "lookup_customer":\n        return result\n    safe_args = {k: v for k, v in result.arguments.items() if k != "ssn"}\n    return result.model_copy(\n        update={\n            "value": "redacted",\n            "arguments": safe_args,\n            "is_error": False,\n        }\n    )\n',
  },
];
