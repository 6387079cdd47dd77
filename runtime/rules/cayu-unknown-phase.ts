// STUB — to be replaced by the rule's implementation.
import type { Rule } from './rule';

export const cayuUnknownPhase: Rule = {
  code: 'cayu-unknown-phase',
  engine: 'cayu',
  severity: 'warning',
  title: 'TODO',
  docs: { what: 'TODO', why: 'TODO', spec: 'TODO', fix: 'TODO' },
  fixable: false,
  check: () => [],
};
