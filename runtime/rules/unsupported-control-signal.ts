// STUB — to be replaced by the rule's implementation.
import type { Rule } from './rule';

export const unsupportedControlSignal: Rule = {
  code: 'unsupported-control-signal',
  engine: 'mantle',
  severity: 'error',
  title: 'TODO',
  docs: { what: 'TODO', why: 'TODO', spec: 'TODO', fix: 'TODO' },
  fixable: false,
  check: () => [],
};
