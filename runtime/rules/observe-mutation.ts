// STUB — to be replaced by the rule's implementation.
import type { Rule } from './rule';

export const observeMutation: Rule = {
  code: 'observe-mutation',
  engine: 'mantle',
  severity: 'warning',
  title: 'TODO',
  docs: { what: 'TODO', why: 'TODO', spec: 'TODO', fix: 'TODO' },
  fixable: false,
  check: () => [],
};
