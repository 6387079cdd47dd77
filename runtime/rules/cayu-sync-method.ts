// STUB — to be replaced by the rule's implementation.
import type { Rule } from './rule';

export const cayuSyncMethod: Rule = {
  code: 'cayu-sync-method',
  engine: 'cayu',
  severity: 'error',
  title: 'TODO',
  docs: { what: 'TODO', why: 'TODO', spec: 'TODO', fix: 'TODO' },
  fixable: false,
  check: () => [],
};
