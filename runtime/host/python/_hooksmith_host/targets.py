"""What invoke needs to find a hook and watch its argument: the handler a dotted name names, whether a
Cayu hook class defines a phase itself, and the payload's JSON text before and after the call.
Kept apart from hooksmith_host.py so the host's main module stays short."""
from _hooksmith_host.describe import to_json_text


def resolve_dotted(mod, dotted: str):
    obj = mod
    for part in dotted.split("."):
        obj = getattr(obj, part)
    return obj


def overrides_phase(cls, method: str) -> bool:
    """Defined by the class or a base other than the Cayu RuntimeHook base itself."""
    for klass in cls.__mro__:
        if method in vars(klass):
            return not (klass.__name__ == "RuntimeHook" and klass.__module__.startswith("cayu"))
    return False


def dump_payload(obj) -> str:
    """The payload as JSON text (repr when it has none): compared before and after to see a mutation."""
    try:
        return to_json_text(obj)
    except Exception:
        return repr(obj)
