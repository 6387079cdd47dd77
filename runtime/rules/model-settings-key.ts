// STUB — to be replaced by the rule's implementation.
import type { Rule } from './rule';

export const modelSettingsKey: Rule = {
  code: 'model-settings-key',
  engine: 'mantle',
  severity: 'warning',
  title: 'TODO',
  docs: { what: 'TODO', why: 'TODO', spec: 'TODO', fix: 'TODO' },
  fixable: false,
  check: () => [],
};
