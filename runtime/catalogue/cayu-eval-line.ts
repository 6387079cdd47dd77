// The eval corpus format of cayu 0.15 as data: catalogue/engine-lines/cayu-0.15-eval.json,
// written by scripts/introspect-cayu-eval.py from the installed package (each fact with the
// file:line it stands on). runtime/engine/cayu-eval.ts reads corpora with it.
import line from './engine-lines/cayu-0.15-eval.json';

export const CAYU_EVAL_LINE = line;

/** Every assertion kind the engine's corpus accepts (its discriminated union). */
export const CAYU_EVAL_KINDS: readonly string[] = line.facts.assertionKinds.map((k) => k.kind);

/** Where the engine defines a kind (file:line), for messages that name it. */
export function cayuEvalKindSource(kind: string): string | undefined {
  return line.facts.assertionKinds.find((k) => k.kind === kind)?.source;
}
