"""Reads the hook API of the cayu installed in this interpreter and prints it as JSON (a Cayu line).

    /path/to/python scripts/gen-cayu-line.py > runtime/catalogue/cayu-lines/cayu-<version>.json
    npx prettier --write runtime/catalogue/cayu-lines/

Introspection only (imports, inspect, pydantic's model fields, the package's own data files): nothing
of cayu is copied, every fact carries the source file:line it was read from (relative to the
site-packages folder). test/unit/cayu-line-data.test.ts holds the catalogue to these files.
"""

import enum
import importlib
import importlib.metadata
import inspect
import json
import os
import sys
import typing

# The public names a hook module uses, and the neighbours the brief asks about.
HOOK_NAMES = [
    "RuntimeHook",
    "RuntimeHookPhase",
    "RuntimeHookContext",
    "ToolCallHookContext",
    "BeforeToolCallHookContext",
    "BeforeToolCallDecision",
    "AfterToolCallDecision",
]
OTHER_NAMES = [
    "ToolResult",
    "Event",
    "EventType",
    "CayuApp",
    "Tool",
    "ToolSpec",
    "AgentSpec",
    "Message",
    "RunRequest",
    "ResumeRequest",
    "InMemorySessionStore",
    "ModelProvider",
    "ModelStreamEvent",
    "LoopPolicy",
    "BeforeStopDecision",
    "EventWatcher",
    "ScriptedModelProvider",
]
# Every module a hook author could import these from, on any line we know.
CANDIDATE_MODULES = [
    "cayu",
    "cayu.runtime",
    "cayu.runtime.hooks",
    "cayu.runtime.app",
    "cayu.observability",
    "cayu.observability.hooks",
    "cayu.core",
    "cayu.core.tools",
    "cayu.core.events",
    "cayu.tools",
    "cayu.tools.base",
    "cayu.events",
    "cayu.applications",
    "cayu.providers",
    "cayu.sessions",
    "cayu.storage",
    "cayu.testing",
    "cayu.evals.testing",
]

SITE = None


def where(obj):
    """file:line of a definition, relative to site-packages (None when not Python source)."""
    try:
        obj = inspect.unwrap(obj)
        path = inspect.getsourcefile(obj)
        line = inspect.getsourcelines(obj)[1]
    except (TypeError, OSError):
        return None
    return f"{os.path.relpath(path, SITE)}:{max(line, 1)}"


def module_or_none(name):
    try:
        return importlib.import_module(name)
    except Exception as e:  # a module of another line, an optional extra
        return None


def exported(module, name):
    """The object `from module import name` gives, or the ImportError text the package raises."""
    try:
        return getattr(module, name), None
    except ImportError as e:
        return None, str(e)
    except AttributeError:
        return None, None


def type_text(annotation):
    if isinstance(annotation, str):
        return annotation
    text = getattr(annotation, "__name__", None) if isinstance(annotation, type) else None
    return text or str(annotation).replace("typing.", "")


def literal_values(annotation):
    if typing.get_origin(annotation) is typing.Literal:
        return list(typing.get_args(annotation))
    return None


def decision_facts(cls):
    fields = {}
    actions = None
    for name, info in cls.model_fields.items():
        if name == "action":
            actions = literal_values(info.annotation)
            continue
        fields[name] = type_text(info.annotation)
    return {
        "at": where(cls),
        "actions": actions,
        "fields": fields,
        "extra": cls.model_config.get("extra"),
    }


def properties_of(cls):
    """Public read-only properties through the class's bases (name → return annotation)."""
    out = {}
    for klass in reversed(cls.__mro__):
        for name, value in vars(klass).items():
            if isinstance(value, property) and not name.startswith("_"):
                ret = inspect.signature(value.fget).return_annotation
                out[name] = {"type": type_text(ret), "at": where(value.fget)}
    return out


def async_methods_of(cls):
    out = {}
    for klass in reversed(cls.__mro__):
        for name, value in vars(klass).items():
            if inspect.iscoroutinefunction(value) and not name.startswith("_"):
                out[name] = {"at": where(value), "signature": str(inspect.signature(value))}
    return out


def main():
    global SITE
    import cayu

    SITE = os.path.dirname(os.path.dirname(os.path.abspath(cayu.__file__)))
    version = importlib.metadata.version("cayu")
    modules = {}
    for name in CANDIDATE_MODULES:
        mod = module_or_none(name)
        if mod is None:
            modules[name] = None
            continue
        names = {}
        for n in HOOK_NAMES + OTHER_NAMES:
            obj, removed = exported(mod, n)
            if obj is not None:
                public = n in (getattr(mod, "__all__", None) or [])
                names[n] = {"defined": f"{obj.__module__}", "at": where(obj), "public": public}
            elif removed:
                names[n] = {"removed": removed}
        modules[name] = names

    hooks_mod = None
    for candidate in ("cayu.observability.hooks", "cayu.runtime.hooks"):
        hooks_mod = module_or_none(candidate)
        if hooks_mod is not None and hasattr(hooks_mod, "RuntimeHook"):
            break
    facts = {"hooksModule": hooks_mod.__name__, "at": where(hooks_mod)}
    Phase = hooks_mod.RuntimeHookPhase
    Hook = hooks_mod.RuntimeHook
    facts["phases"] = [
        {
            "id": p.value,
            "method": where(getattr(Hook, p.value)),
            "context": type_text(inspect.signature(getattr(Hook, p.value)).parameters["context"].annotation),
            "returns": type_text(inspect.signature(getattr(Hook, p.value)).return_annotation),
        }
        for p in Phase
    ]
    facts["phaseEnum"] = where(Phase)
    facts["hookProperties"] = properties_of(Hook)
    facts["decisions"] = {
        n: decision_facts(getattr(hooks_mod, n)) for n in ("BeforeToolCallDecision", "AfterToolCallDecision")
    }
    facts["contexts"] = {
        n: {
            "at": where(getattr(hooks_mod, n)),
            "properties": properties_of(getattr(hooks_mod, n)),
            "methods": async_methods_of(getattr(hooks_mod, n)),
        }
        for n in ("BeforeToolCallHookContext", "ToolCallHookContext", "RuntimeHookContext")
    }
    tool_result = None
    for m in ("cayu.tools.base", "cayu.core.tools"):
        mod = module_or_none(m)
        if mod is not None and hasattr(mod, "ToolResult"):
            tool_result = mod.ToolResult
            break
    facts["toolResult"] = {
        "at": where(tool_result),
        "fields": {
            k: {"type": type_text(v.annotation), "default": repr(v.default)}
            for k, v in tool_result.model_fields.items()
        },
    }
    events = None
    for m in ("cayu.events", "cayu.core.events"):
        mod = module_or_none(m)
        if mod is not None and hasattr(mod, "EventType"):
            events = mod
            break
    facts["hookEvents"] = sorted(
        e.value for e in events.EventType if isinstance(e, enum.Enum) and str(e.value).startswith("hook.")
    )
    facts["eventTypeEnum"] = where(events.EventType)
    custom = getattr(events, "validate_public_custom_event_type", None)
    facts["customEventRule"] = {"at": where(custom), "doc": inspect.getdoc(custom)} if custom else None

    loop = module_or_none("cayu.runtime.loop_policies")
    facts["loopPolicyBeforeStop"] = (
        {"at": where(loop.LoopPolicy.before_stop), "signature": str(inspect.signature(loop.LoopPolicy.before_stop))}
        if loop is not None and hasattr(getattr(loop, "LoopPolicy", None), "before_stop")
        else None
    )
    watchers = module_or_none("cayu.observability.watchers")
    facts["eventWatcher"] = (
        {"at": where(watchers.EventWatcher), "methods": async_methods_of(watchers.EventWatcher)}
        if watchers is not None and hasattr(watchers, "EventWatcher")
        else None
    )
    # The package's own map of removed import paths (0.15: cayu/data/public_api_imports.json).
    migration = None
    try:
        from importlib.resources import files

        grouped = json.loads(files("cayu.data").joinpath("public_api_imports.json").read_bytes())
        wanted = set(HOOK_NAMES + OTHER_NAMES)
        migration = {
            "at": "cayu/data/public_api_imports.json",
            "moved": {
                f"{package}.{n}": module
                for package, owners in grouped.items()
                for module, names in owners.items()
                for n in names
                if n in wanted
            },
        }
    except Exception:
        pass
    json.dump(
        {
            "generatedBy": "scripts/gen-cayu-line.py",
            "python": sys.version.split()[0],
            "cayu": version,
            "modules": modules,
            "hookApi": facts,
            "importMigration": migration,
        },
        sys.stdout,
        indent=1,
        sort_keys=True,
    )
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
