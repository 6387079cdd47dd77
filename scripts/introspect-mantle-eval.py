"""Reads how the installed rasa-pro loads Mantle eval scenario files and writes it as data.

Run with an interpreter where rasa-pro is installed (no license key is needed for it):

    HOOKSMITH_MANTLE_PYTHON=/path/to/venv/bin/python npm run gen:mantle-eval
    /path/to/venv/bin/python scripts/introspect-mantle-eval.py [--out FILE | --stdout]

rasa-pro 3.21 loads `eval/scenarios/*.yml` in `load_scenario`
(rasa/builder/copilot/mcp_server/tools/scenario.py): pykwalify validates the raw YAML against
the package's schema file (builder/copilot/mcp_server/schema/scenario_schema.yml, with the
`require_assertion_keys` extension), then the pydantic `Scenario` model reads `scenario:`.
The schema is the package's own data: it is kept here as read, each key with the file:line it
stands on; the models' fields with theirs; and what the loader itself says of a few probe
documents (the `type` key the docs describe, Hooksmith's `hooksmith` key). No engine code is
copied. The output is runtime/catalogue/engine-lines/rasa-pro-<major.minor>-eval.json; the
Mantle eval-file schema of Hooksmith (runtime/engine/mantle-scenario.ts) is built from it, and
test/runtime/mantle-eval-line.test.ts holds Hooksmith's verdicts equal to the loader's.
"""
import importlib
import importlib.metadata
import inspect
import json
import os
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
os.environ.setdefault("RASA_TELEMETRY_ENABLED", "false")

try:
    scenario_mod = importlib.import_module("rasa.builder.copilot.mcp_server.tools.scenario")
except Exception as e:  # noqa: BLE001 - say why and stop
    sys.exit(f"rasa-pro's scenario loader does not import in {sys.executable}: {e!r}")

import yaml  # noqa: E402 - rasa-pro depends on it

expected_mod = importlib.import_module("rasa.builder.copilot.mcp_server.tools.expected_tools")
extensions_mod = importlib.import_module("rasa.e2e_test.pykwalify_extensions")
rasa_pkg = importlib.import_module("rasa")
SITE = Path(rasa_pkg.__file__).resolve().parents[1]
VERSION = importlib.metadata.version("rasa-pro")


def rel(path) -> str:
    return Path(path).resolve().relative_to(SITE).as_posix()


def source_of(obj) -> str:
    return f"{rel(inspect.getsourcefile(obj))}:{inspect.getsourcelines(obj)[1]}"


SCHEMA_FILE = Path(rasa_pkg.__file__).resolve().parent / scenario_mod._SCENARIO_SCHEMA
SCHEMA_REL = rel(SCHEMA_FILE)
SCHEMA_TEXT = SCHEMA_FILE.read_text(encoding="utf-8")
SCHEMA = yaml.safe_load(SCHEMA_TEXT)


def key_lines(node, prefix="", out=None):
    """Each mapping key's path (dotted) → its 1-based line in the schema file."""
    out = {} if out is None else out
    if isinstance(node, yaml.MappingNode):
        for k, v in node.value:
            path = f"{prefix}.{k.value}" if prefix else str(k.value)
            out[path] = k.start_mark.line + 1
            key_lines(v, path, out)
    elif isinstance(node, yaml.SequenceNode):
        for i, item in enumerate(node.value):
            key_lines(item, f"{prefix}[{i}]", out)
    return out


LINES = key_lines(yaml.compose(SCHEMA_TEXT))


def at(path: str) -> str:
    return f"{SCHEMA_REL}:{LINES[path]}"


def mapping_keys(path: str, node: dict):
    """The keys of a schema `mapping`, each with its line, type and whether it is required."""
    return [
        {
            "key": k,
            "type": v.get("type", "include" if "include" in v else None),
            **({"include": v["include"]} if "include" in v else {}),
            "required": bool(v.get("required", False)),
            "source": at(f"{path}.mapping.{k}" if path else f"mapping.{k}"),
        }
        for k, v in node["mapping"].items()
    ]


def field_facts(model):
    """A pydantic model's fields: type, required, default, and the line of the class."""
    return {
        "source": source_of(model),
        "fields": {
            name: {
                "type": getattr(f.annotation, "__name__", None) if isinstance(f.annotation, type)
                else str(f.annotation).replace("typing.", ""),
                "required": f.is_required(),
            }
            for name, f in model.model_fields.items()
        },
    }


def loader_verdict(doc_text: str):
    """What load_scenario says of a document: accepted, or its error's deciding line."""
    with tempfile.TemporaryDirectory() as d:
        path = Path(d) / "probe.yml"
        path.write_text(doc_text, encoding="utf-8")
        try:
            scenario_mod.load_scenario(path)
        except Exception as e:  # noqa: BLE001 - the loader's verdict is the fact
            lines = [ln.strip() for ln in str(e).splitlines() if ln.strip()]
            deciding = [ln for ln in lines if "Key '" in ln or "required" in ln.lower()]
            return {"verdict": "rejected", "error": (deciding or lines[-1:])[0]}
    return {"verdict": "accepted"}


PROBES = {
    "type": "scenario:\n  name: x\n  type: happy_path\n  simulation_context: hi\n",
    "hooksmith": "scenario:\n  name: x\n  simulation_context: hi\n  hooksmith: {user: hi}\n",
    "minimal": "scenario:\n  name: x\n  simulation_context: hi\n",
    "no simulation_context": "scenario:\n  name: x\n",
}


def main() -> None:
    scenario = SCHEMA["mapping"]["scenario"]
    goals = scenario["mapping"]["goals"]
    assertions = SCHEMA["schema;scenario_assertions"]
    steps = SCHEMA["schema;sequencing_steps"]
    item = assertions["sequence"][0]
    line = {
        "generatedBy": "scripts/introspect-mantle-eval.py",
        "package": "rasa-pro",
        "version": VERSION,
        "loader": {"function": "load_scenario", "source": source_of(scenario_mod.load_scenario)},
        "schemaFile": SCHEMA_REL,
        "facts": {
            "topKeys": mapping_keys("", SCHEMA),
            "scenarioKeys": mapping_keys("mapping.scenario", scenario),
            "typeKey": {
                "defined": "type" in scenario["mapping"],
                "loader": loader_verdict(PROBES["type"]),
                "source": at("mapping.scenario.mapping"),
            },
            "setupKeys": mapping_keys("mapping.scenario.mapping.setup", scenario["mapping"]["setup"]),
            "goalsKeys": mapping_keys("mapping.scenario.mapping.goals", goals),
            "assertionKinds": mapping_keys("schema;scenario_assertions.sequence[0]", item),
            "oneKeyPerAssertion": {
                "range": item.get("range"),
                "source": at("schema;scenario_assertions.sequence[0].range"),
            },
            "assertionsCheck": {
                "func": assertions.get("func"),
                "source": source_of(getattr(extensions_mod, assertions["func"])),
            },
            "sequencingKinds": mapping_keys("schema;sequencing_steps.sequence[0]", steps["sequence"][0]),
            "expectedTools": {
                "parse": source_of(expected_mod.parse_expected_tools),
                "schema": at("schema;expected_tools_groups"),
            },
        },
        "models": {
            "Scenario": field_facts(scenario_mod.Scenario),
            "ScenarioSetup": field_facts(scenario_mod.ScenarioSetup),
            "ScenarioGoals": field_facts(scenario_mod.ScenarioGoals),
        },
        "probes": {name: loader_verdict(text) for name, text in PROBES.items()},
        # The schema as the package ships it (data): Hooksmith builds its eval-file schema from it.
        "schema": SCHEMA,
    }
    text = json.dumps(line, indent=2, sort_keys=False) + "\n"
    args = sys.argv[1:]
    if "--stdout" in args:
        sys.stdout.write(text)
        return
    major_minor = ".".join(VERSION.split(".")[:2])
    out = Path(args[args.index("--out") + 1]) if "--out" in args else (
        ROOT / "runtime" / "catalogue" / "engine-lines" / f"rasa-pro-{major_minor}-eval.json"
    )
    out.write_text(text, encoding="utf-8")
    print(f"wrote {out.relative_to(ROOT) if out.is_relative_to(ROOT) else out}")


main()
