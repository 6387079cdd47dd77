// STUB — to be replaced by the rule's implementation.
import type { Rule } from './rule';

export const cayuArgumentsMutation: Rule = {
  code: 'cayu-arguments-mutation',
  engine: 'cayu',
  severity: 'warning',
  title: 'TODO',
  docs: { what: 'TODO', why: 'TODO', spec: 'TODO', fix: 'TODO' },
  fixable: false,
  check: () => [],
};
