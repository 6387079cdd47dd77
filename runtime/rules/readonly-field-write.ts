// STUB — to be replaced by the rule's implementation.
import type { Rule } from './rule';

export const readonlyFieldWrite: Rule = {
  code: 'readonly-field-write',
  engine: 'mantle',
  severity: 'warning',
  title: 'TODO',
  docs: { what: 'TODO', why: 'TODO', spec: 'TODO', fix: 'TODO' },
  fixable: false,
  check: () => [],
};
