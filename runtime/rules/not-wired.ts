// STUB — to be replaced by the rule's implementation.
import type { Rule } from './rule';

export const notWired: Rule = {
  code: 'not-wired',
  engine: 'mantle',
  severity: 'information',
  title: 'TODO',
  docs: { what: 'TODO', why: 'TODO', spec: 'TODO', fix: 'TODO' },
  fixable: false,
  check: () => [],
};
