// How the installed rasa-pro loads Mantle eval scenario files (`eval/scenarios/*.yml`), as data:
// engine-lines/rasa-pro-<x.y>-eval.json, written by scripts/introspect-mantle-eval.py from the
// package (its loader, its pykwalify schema file, its pydantic models; every fact with its
// file:line). The engine's eval-file schema (runtime/engine/mantle-eval-schema.ts) is built from it.
import line from './engine-lines/rasa-pro-3.21-eval.json';

/** One node of a pykwalify schema, as the package's scenario_schema.yml writes it. */
export interface EvalSchemaNode {
  type?: string;
  required?: boolean;
  nullable?: boolean;
  enum?: string[];
  mapping?: Record<string, EvalSchemaNode>;
  sequence?: EvalSchemaNode[];
  matching?: string;
  range?: { min?: number; max?: number };
  allowempty?: boolean;
  include?: string;
  func?: string;
}

/** A key of the schema with where it stands. */
export interface EvalKeyFact {
  key: string;
  type: string | null;
  required: boolean;
  source: string;
  include?: string;
}

export interface MantleEvalLine {
  generatedBy: string;
  package: string;
  version: string;
  loader: { function: string; source: string };
  schemaFile: string;
  facts: {
    topKeys: EvalKeyFact[];
    scenarioKeys: EvalKeyFact[];
    typeKey: { defined: boolean; loader: { verdict: string; error?: string }; source: string };
    setupKeys: EvalKeyFact[];
    goalsKeys: EvalKeyFact[];
    assertionKinds: EvalKeyFact[];
    oneKeyPerAssertion: { range: { min?: number; max?: number }; source: string };
    assertionsCheck: { func: string; source: string };
    sequencingKinds: EvalKeyFact[];
    expectedTools: { parse: string; schema: string };
  };
  models: Record<string, { source: string; fields: Record<string, { type: string; required: boolean }> }>;
  probes: Record<string, { verdict: string; error?: string }>;
  schema: Record<string, EvalSchemaNode>;
}

export const MANTLE_EVAL_LINE = line as unknown as MantleEvalLine;

/** "rasa-pro 3.21.0": the engine the facts were read from, for messages. */
export const EVAL_ENGINE = `${MANTLE_EVAL_LINE.package} ${MANTLE_EVAL_LINE.version}`;
