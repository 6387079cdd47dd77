// STUB — to be replaced by the rule's implementation.
import type { Rule } from './rule';

export const missingReturn: Rule = {
  code: 'missing-return',
  engine: 'mantle',
  severity: 'warning',
  title: 'TODO',
  docs: { what: 'TODO', why: 'TODO', spec: 'TODO', fix: 'TODO' },
  fixable: false,
  check: () => [],
};
