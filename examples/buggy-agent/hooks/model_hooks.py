"""Model hooks that pass `hooksmith check` but not their tests (see README, "The buggy example")."""
from rasa.mantle.hooks import ModelResponsePayload, modify_model_response


@modify_model_response()
async def capitalise(response: ModelResponsePayload) -> ModelResponsePayload:
    if response.text is None:
        return response
    # Bug: an empty or blank answer has no first character (IndexError).
    text = response.text.strip()
    return response.model_copy(update={"text": text[0].upper() + text[1:]})
