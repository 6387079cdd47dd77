// STUB — to be replaced by the rule's implementation.
import type { Rule } from './rule';

export const payloadAnnotation: Rule = {
  code: 'payload-annotation',
  engine: 'mantle',
  severity: 'error',
  title: 'TODO',
  docs: { what: 'TODO', why: 'TODO', spec: 'TODO', fix: 'TODO' },
  fixable: false,
  check: () => [],
};
