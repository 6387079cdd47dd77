"""Reads the eval corpus format of the installed cayu and writes it as data.

Run with an interpreter where cayu (0.15 or newer) is installed:

    HOOKSMITH_CAYU_PYTHON=/path/to/venv/bin/python npm run gen:cayu-eval
    /path/to/venv/bin/python scripts/introspect-cayu-eval.py [--out FILE | --stdout]

`cayu eval --corpus FILE` and `cayu eval validate CORPUS_JSON` (cayu/cli/evals.py) read one JSON
corpus through `load_eval_corpus` (cayu/evals/corpus.py): pydantic models with a schema_version,
suites and cases; a case's `input` holds only user messages, its `assertions` one kind each. The
file name is a CLI argument, never a path convention. This script records, each with the
file:line it stands on: the corpus's keys, a case's keys, the input's keys and limits, every
assertion kind and its fields, and which kinds Hooksmith checks deterministically on a played
scenario (its own judgement, kept beside the engine's facts). No engine code is copied. Output:
runtime/catalogue/engine-lines/cayu-<major.minor>-eval.json, read by runtime/engine/cayu-eval.ts.
"""
import importlib
import importlib.metadata
import inspect
import json
import sys
import typing
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

try:
    corpus = importlib.import_module("cayu.evals.corpus")
except Exception as e:  # noqa: BLE001 - say why and stop
    sys.exit(f"cayu's eval corpus does not import in {sys.executable}: {e!r}")
cayu_pkg = importlib.import_module("cayu")
PKG_ROOT = Path(cayu_pkg.__file__).resolve().parent.parent

# Hooksmith's mapping of a kind onto a played scenario's `expect:` (None: not checked, and why).
# The mapping itself is runtime/engine/cayu-eval.ts; this says where each kind lands.
HOOKSMITH_CHECKS = {
    "root_status": "status (completed; failed as error)",
    "final_output_equals": "agent_message.equals (text comparison only)",
    "final_output_contains": "agent_message.contains",
    "tool_called": "tool_called (min_count >= 1, no max_count) or tool_not_called (max_count 0)",
    "tools_called_in_order": "order (each name's first call before the next name's)",
}


def where(obj) -> str:
    file = inspect.getsourcefile(obj)
    _, line = inspect.getsourcelines(obj)
    return f"{Path(file).resolve().relative_to(PKG_ROOT)}:{line}"


def fields(model) -> list:
    out = []
    for name, info in model.model_fields.items():
        out.append({"key": name, "required": info.is_required()})
    return out


def assertion_types() -> list:
    union = typing.get_args(corpus.AssertionSpec)[0]
    return list(typing.get_args(union))


def kind_of(model) -> str:
    return typing.get_args(model.model_fields["kind"].annotation)[0]


def facts() -> dict:
    kinds = []
    for model in assertion_types():
        kind = kind_of(model)
        kinds.append({
            "kind": kind,
            "model": model.__name__,
            "fields": [f for f in fields(model) if f["key"] not in ("kind",)],
            "hooksmith": HOOKSMITH_CHECKS.get(kind),
            "source": where(model),
        })
    limits = {
        name: getattr(corpus, name)
        for name in ("EVAL_CORPUS_MAX_BYTES", "EVAL_CORPUS_MAX_SUITES", "EVAL_CORPUS_MAX_CASES",
                     "EVAL_CORPUS_MAX_ASSERTIONS_PER_CASE", "EVAL_CORPUS_MAX_MESSAGES_PER_CASE",
                     "EVAL_CORPUS_MAX_MESSAGE_CHARS", "EVAL_CORPUS_MAX_TOTAL_MESSAGE_CHARS")
    }
    return {
        "schemaVersion": corpus.EVAL_CORPUS_SCHEMA_VERSION,
        "corpusKeys": fields(corpus.EvalCorpusDocument),
        "corpusSource": where(corpus.EvalCorpusDocument),
        "suiteKeys": fields(corpus.EvalSuiteSpec),
        "suiteSource": where(corpus.EvalSuiteSpec),
        "caseKeys": fields(corpus.EvalCaseSpec),
        "caseSource": where(corpus.EvalCaseSpec),
        "inputKeys": fields(corpus.RunInputSpec),
        "inputSource": where(corpus.RunInputSpec),
        "messageKeys": fields(corpus.CorpusUserMessageSpec),
        "messageSource": where(corpus.CorpusUserMessageSpec),
        "limits": limits,
        "assertionKinds": kinds,
    }


def main() -> None:
    version = importlib.metadata.version("cayu")
    doc = {
        "generatedBy": "scripts/introspect-cayu-eval.py",
        "package": "cayu",
        "version": version,
        "loader": {"function": "load_eval_corpus", "source": where(corpus.load_eval_corpus)},
        "cli": "cayu eval --corpus FILE; cayu eval validate CORPUS_JSON (cayu/cli/evals.py): the file is an argument, no path convention",
        "facts": facts(),
    }
    text = json.dumps(doc, indent=2) + "\n"
    if "--stdout" in sys.argv:
        sys.stdout.write(text)
        return
    major_minor = ".".join(version.split(".")[:2])
    default = ROOT / "runtime" / "catalogue" / "engine-lines" / f"cayu-{major_minor}-eval.json"
    out = Path(sys.argv[sys.argv.index("--out") + 1]) if "--out" in sys.argv else default
    out.write_text(text, encoding="utf-8")
    print(f"wrote {out}")


if __name__ == "__main__":
    main()
