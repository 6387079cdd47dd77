"""Reads the Mantle hook API of the installed rasa-pro and writes it as an engine line (data only).

Run with an interpreter where `rasa.mantle.hooks` imports (no license key is needed for that):

    HOOKSMITH_MANTLE_PYTHON=/path/to/venv/bin/python npm run gen:mantle-line
    /path/to/venv/bin/python scripts/introspect-mantle-line.py [--out FILE | --stdout]

Every fact is read from the package itself (its objects by introspection, its sources by `ast`
where the fact is behaviour, e.g. which fields a call site reads back from a modify hook's
result) and carries the file:line it came from, relative to site-packages. No engine code is
copied: names, types, defaults, policies and places only. The output is
runtime/catalogue/engine-lines/rasa-pro-<major.minor>.json; test/unit/catalogue/mantle-engine-line.test.ts
diffs it against the catalogue.
"""
import ast
import importlib
import importlib.metadata
import inspect
import json
import sys
import textwrap
import typing
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

try:
    hooks = importlib.import_module("rasa.mantle.hooks")
except Exception as e:  # noqa: BLE001 - say why and stop
    sys.exit(f"rasa.mantle.hooks does not import in {sys.executable}: {e!r}")

constants = importlib.import_module("rasa.mantle.hooks.constants")
decorators = importlib.import_module("rasa.mantle.hooks.decorators")
exceptions = importlib.import_module("rasa.mantle.hooks.exceptions")
payloads = importlib.import_module("rasa.mantle.hooks.payloads")
points = importlib.import_module("rasa.mantle.hooks.points")
registry = importlib.import_module("rasa.mantle.hooks.registry")
runner = importlib.import_module("rasa.mantle.hooks.runner")
loader = importlib.import_module("rasa.mantle.hooks.loader")
validation = importlib.import_module("rasa.mantle.hooks.validation")

SITE = Path(hooks.__file__).resolve().parents[3]  # .../site-packages
MANTLE_DIR = Path(hooks.__file__).resolve().parents[1]  # .../rasa/mantle


def rel(path) -> str:
    return Path(path).resolve().relative_to(SITE).as_posix()


_trees = {}


def tree_of(path: Path):
    path = Path(path).resolve()
    if path not in _trees:
        text = path.read_text(encoding="utf-8")
        _trees[path] = (ast.parse(text), text)
    return _trees[path]


def module_path(mod) -> Path:
    return Path(mod.__file__).resolve()


def where(mod, line: int) -> str:
    return f"{rel(module_path(mod))}:{line}"


def assignment_line(mod, name: str):
    """The line of the module-level assignment that binds `name`."""
    tree, _ = tree_of(module_path(mod))
    for node in tree.body:
        targets = node.targets if isinstance(node, ast.Assign) else [node.target] if isinstance(node, ast.AnnAssign) else []
        if any(isinstance(t, ast.Name) and t.id == name for t in targets):
            return node.lineno
    return None


def source_of(obj) -> str:
    file = inspect.getsourcefile(obj)
    return f"{rel(file)}:{inspect.getsourcelines(obj)[1]}"


def snippet(mod, text: str):
    """file:line of the first line of `mod` holding `text` (behaviour facts); None: not found."""
    _, source = tree_of(module_path(mod))
    for i, line in enumerate(source.splitlines(), 1):
        if text in line:
            return where(mod, i)
    return None


def fact(value, at):
    return {"value": value, "source": at}


def const(name: str):
    return fact(getattr(constants, name), where(constants, assignment_line(constants, name)))


# ---------------------------------------------------------------------------- exports
def exports():
    line = assignment_line(hooks, "__all__")
    return {"names": sorted(hooks.__all__), "source": where(hooks, line)}


# ---------------------------------------------------------------------------- payloads
def annotation_text(cls, field: str) -> str:
    for klass in cls.__mro__:
        try:
            lines, start = inspect.getsourcelines(klass)
        except (OSError, TypeError):
            continue
        node = ast.parse(textwrap.dedent("".join(lines)))
        for stmt in node.body[0].body:
            if isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name) and stmt.target.id == field:
                return ast.unparse(stmt.annotation), klass, start + stmt.lineno - 1
    return str(cls.model_fields[field].annotation), cls, None


def jsonable(value):
    if hasattr(value, "model_dump"):
        return value.model_dump(mode="json")
    try:
        json.dumps(value)
        return value
    except TypeError:
        return repr(value)


def payload_model(cls):
    fields = []
    for name, info in cls.model_fields.items():
        text, owner, line = annotation_text(cls, name)
        entry = {
            "name": name,
            "pythonType": text,
            "required": info.is_required(),
            "declaredIn": owner.__name__,
            "source": f"{rel(inspect.getsourcefile(owner))}:{line}" if line else source_of(owner),
        }
        if not info.is_required():
            default = info.default_factory() if info.default_factory is not None else info.default
            entry["default"] = jsonable(default)
        literal = typing.get_args(info.annotation) if typing.get_origin(info.annotation) is typing.Literal else None
        if literal:
            entry["literal"] = list(literal)
        fields.append(entry)
    return {
        "name": cls.__name__,
        "base": cls.__mro__[1].__name__,
        "frozen": bool(cls.model_config.get("frozen")),
        "source": source_of(cls),
        "fields": fields,
    }


def payload_models():
    names = [n for n in hooks.__all__ if isinstance(getattr(hooks, n), type) and hasattr(getattr(hooks, n), "model_fields")]
    return [payload_model(getattr(hooks, n)) for n in sorted(names)]


# ---------------------------------------------------------------------------- signals
def signals():
    out = []
    for cls in (exceptions.HookControlFlow, exceptions.HookRejection, exceptions.RetryModel):
        params = [
            {"name": p.name, "required": p.default is inspect.Parameter.empty, **({} if p.default is inspect.Parameter.empty else {"default": p.default})}
            for p in list(inspect.signature(cls.__init__).parameters.values())[1:]
            if p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)
        ]
        out.append({"name": cls.__name__, "base": cls.__mro__[1].__name__, "params": params, "source": source_of(cls)})
    return out


# ---------------------------------------------------------------------------- call sites
def point_constant_of(arg):
    if isinstance(arg, ast.Name) and arg.id.startswith("POINT_") and hasattr(constants, arg.id):
        return getattr(constants, arg.id)
    return None


def enclosing_functions(tree):
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            yield node


def runner_call_sites():
    """point → [{helper, runs, source, readsBack}] for every run_modify / run_observers call."""
    sites = {}
    for path in sorted(MANTLE_DIR.rglob("*.py")):
        tree, _ = tree_of(path)
        for fn in enclosing_functions(tree):
            for node in ast.walk(fn):
                if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)):
                    continue
                if node.func.id not in ("run_modify", "run_observers") or len(node.args) < 2:
                    continue
                point = point_constant_of(node.args[1])
                if point is None:
                    continue
                entry = sites.setdefault(point, {})
                site = entry.setdefault(fn.name, {"helper": fn.name, "module": rel(path), "runs": [], "readsBack": None})
                site["runs"].append({"call": node.func.id, "source": f"{rel(path)}:{node.lineno}"})
                if node.func.id == "run_modify":
                    site["readsBack"] = reads_back(fn, path)
    return {p: list(v.values()) for p, v in sites.items()}


def reads_back(fn, path):
    """The payload attributes the helper reads from what the modify lane handed back."""
    holders = set()
    result_names = set()
    for node in ast.walk(fn):
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            value = node.value
            if isinstance(value, ast.Await) and isinstance(value.value, ast.Call) and getattr(value.value.func, "id", "") == "run_modify":
                result_names.add(node.targets[0].id)
    for node in ast.walk(fn):
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            value = node.value
            if isinstance(value, ast.Call) and getattr(value.func, "id", "") == "cast" and len(value.args) == 2:
                value = value.args[1]
            if isinstance(value, ast.Attribute) and value.attr == "payload" and getattr(value.value, "id", "") in result_names:
                holders.add(node.targets[0].id)
    reads = {}
    for node in ast.walk(fn):
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id in holders:
            reads.setdefault(node.attr, f"{rel(path)}:{node.lineno}")
    return [{"field": k, "source": v} for k, v in sorted(reads.items())]


def callers_of(helper: str, defined_in: str):
    """Where the engine calls a point's helper outside the module that defines it (the point is wired)."""
    found = []
    for path in sorted(MANTLE_DIR.rglob("*.py")):
        if rel(path) == defined_in or "/hooks/" in rel(path) and path.parent.name == "hooks" and path.parent.parent.name == "orchestration":
            continue
        tree, _ = tree_of(path)
        for node in ast.walk(tree):
            if isinstance(node, ast.Call):
                name = node.func.id if isinstance(node.func, ast.Name) else node.func.attr if isinstance(node.func, ast.Attribute) else None
                if name == helper:
                    found.append(f"{rel(path)}:{node.lineno}")
    return found


def point_specs(sites):
    tree, _ = tree_of(module_path(points))
    key_lines = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Dict):
            for key in node.keys:
                p = point_constant_of(key)
                if p is not None:
                    key_lines[p] = key.lineno
    out = []
    for name, spec in points.HOOK_POINT_SPECS.items():
        helpers = []
        for site in sites.get(name, []):
            helpers.append({**site, "calledFrom": callers_of(site["helper"], site["module"])})
        out.append({
            "id": name,
            "source": where(points, key_lines.get(name, 0)),
            "payloadType": spec.payload_type.__name__,
            "observeDecorator": spec.observe_decorator,
            "modifyDecorator": spec.modify_decorator,
            "failPolicyModify": spec.fail_policy_modify,
            "signals": sorted(s.__name__ for s in spec.allowed_control_signals),
            "defaultTimeoutMs": {"observe": spec.default_timeout_observe, "modify": spec.default_timeout_modify},
            "callSites": helpers,
            "wired": any(h["calledFrom"] for h in helpers),
        })
    return out


# ---------------------------------------------------------------------------- decorators
def decorator_facts():
    out = []
    for name, factory in decorators.public_decorators_by_name.items():
        spec, lane = points.spec_for_decorator(name)
        params = inspect.signature(factory).parameters
        out.append({
            "name": name,
            "point": spec.name,
            "lane": lane,
            "defaultTimeoutMs": spec.default_timeout_observe if lane == "observe" else spec.default_timeout_modify,
            "params": [
                {"name": p.name, "kind": p.kind.name, "default": p.default, "annotation": str(p.annotation)}
                for p in params.values()
            ],
            "source": where(decorators, assignment_line(decorators, name)),
        })
    return out


# ---------------------------------------------------------------------------- runner / loader
def identity_restored():
    fn = runner.preserve_identity
    tree = ast.parse(textwrap.dedent(inspect.getsource(fn)))
    keys = [k.value for n in ast.walk(tree) if isinstance(n, ast.Dict) for k in n.keys if isinstance(k, ast.Constant)]
    return fact(keys, source_of(fn))


def runner_facts():
    return {
        "identityRestored": identity_restored(),
        "modifyGetsDeepCopy": fact(True, snippet(runner, "working = payload.model_copy(deep=True)")),
        "observersGetDeepCopies": fact(True, snippet(runner, "(hook, payload.model_copy(deep=True)) for hook in observers")),
        "observersConcurrent": fact(True, snippet(runner, "await asyncio.gather(")),
        "observersNotAwaited": fact(True, snippet(runner, "batch = asyncio.create_task(")),
        "timeoutByWaitFor": fact(True, snippet(runner, "hook.func(working), timeout=hook.timeout_ms / 1000")),
        "returnMustBeInstanceOfPayloadType": fact(True, snippet(runner, "if not isinstance(result, type(payload)):")),
        "unsupportedSignalKeepsPayload": fact(True, snippet(runner, "return ModifyResult(payload=payload, outcome=OUTCOME_ERROR)")),
        "failClosedRaises": fact("HookExecutionError", snippet(runner, "raise HookExecutionError(reason)")),
        "failPolicyDefault": fact("closed", snippet(runner, "fail_policy = spec_for_point(point).fail_policy_modify or FAIL_CLOSED")),
        "outcomes": fact(list(typing.get_args(importlib.import_module("rasa.mantle.hooks.types").HookOutcome)),
                         snippet(importlib.import_module("rasa.mantle.hooks.types"), "HookOutcome = Literal")),
        "oneModifierPerPoint": fact("DuplicateModifierError", snippet(registry, "raise DuplicateModifierError(")),
        "observersInRegistrationOrder": fact(True, snippet(registry, "self._observers.setdefault(hook.point, []).append(hook)")),
    }


def discovery_facts():
    return {
        "file": const("HOOKS_FILE_NAME"),
        "dir": const("HOOKS_DIR_NAME"),
        "skips": fact(["__init__.py", "__pycache__"], source_of(loader._is_nested_hook_file)),
        "order": fact("hooks.py first, then hooks/**/*.py sorted", source_of(loader.load_hooks)),
        "importedHooksSkipped": fact(True, source_of(loader._hooks_defined_in_module)),
        "rootModuleName": fact("_mantle_hooks_root", snippet(loader, '"_mantle_hooks_root"')),
        "dirModulePrefix": fact("_mantle_hooks", snippet(loader, '"_mantle_hooks", snapshot_root')),
    }


def validation_facts():
    tree, _ = tree_of(module_path(validation))
    codes = []
    for node in tree.body:
        if isinstance(node, ast.Assign) and isinstance(node.targets[0], ast.Name) and node.targets[0].id.endswith("_CODE"):
            codes.append({"name": node.targets[0].id, "code": node.value.value, "source": where(validation, node.lineno)})
    return codes


def main(argv):
    version = importlib.metadata.version("rasa-pro")
    line = ".".join(version.split(".")[:2])
    sites = runner_call_sites()
    data = {
        "generatedBy": "scripts/introspect-mantle-line.py",
        "package": "rasa-pro",
        "version": version,
        "module": "rasa.mantle.hooks",
        "exports": exports(),
        "constants": {
            name: const(name)
            for name in (
                "DEFAULT_OBSERVE_TIMEOUT_MS",
                "DEFAULT_MODIFY_TIMEOUT_MS",
                "UTTER_INCOMING_MESSAGE_REJECTED",
                "UTTER_OUTGOING_TEXT_REJECTED",
                "TOOL_CALL_PREFLIGHT_MODE",
                "RETRY_MODEL_FEEDBACK_DESTINATION",
            )
        },
        "decorators": decorator_facts(),
        "points": point_specs(sites),
        "payloads": payload_models(),
        "signals": signals(),
        "runner": runner_facts(),
        "discovery": discovery_facts(),
        "validationCodes": validation_facts(),
    }
    text = json.dumps(data, indent=2, sort_keys=False) + "\n"
    if "--stdout" in argv:
        sys.stdout.write(text)
        return
    out = Path(argv[argv.index("--out") + 1]) if "--out" in argv else ROOT / "runtime" / "catalogue" / "engine-lines" / f"rasa-pro-{line}.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(text, encoding="utf-8")
    print(f"wrote {out.relative_to(ROOT) if out.is_relative_to(ROOT) else out} (rasa-pro {version})", file=sys.stderr)


if __name__ == "__main__":
    main(sys.argv[1:])
