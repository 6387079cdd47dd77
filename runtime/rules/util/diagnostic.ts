// Building a HookDiagnostic for a rule: the rule's code and severity, the module's file.
import type { Fix, HookDiagnostic } from '../diagnostics';
import type { Range } from '../../python/model';
import type { Rule, RuleContext } from '../rule';

export type DiagnosticExtras = Pick<HookDiagnostic, 'related' | 'tags' | 'fixes'>;

export function report(
  rule: Pick<Rule, 'code' | 'severity'>,
  ctx: RuleContext,
  range: Range,
  message: string,
  extras: DiagnosticExtras = {},
): HookDiagnostic {
  const d: HookDiagnostic = {
    code: rule.code,
    severity: rule.severity,
    message,
    file: ctx.module.path,
    range,
  };
  if (extras.related?.length) d.related = extras.related;
  if (extras.tags?.length) d.tags = extras.tags;
  if (extras.fixes?.length) d.fixes = extras.fixes;
  return d;
}

/** `{{name}}` in a rule's message template, filled from the data given with its id. */
const PLACEHOLDER = /\{\{\s*(\w+)\s*\}\}/g;

/**
 * The rule's message `messageId` (Rule.messages) with `data` filled in. An id the rule does not
 * declare, or a placeholder without data, is the rule's bug: it throws.
 */
export function messageText(
  rule: Pick<Rule, 'code' | 'messages'>,
  messageId: string,
  data: Readonly<Record<string, string>> = {},
): string {
  const template = rule.messages?.[messageId];
  if (template === undefined) throw new Error(`${rule.code}: no message ${messageId}`);
  return template.replace(PLACEHOLDER, (_, name: string) => {
    const value = data[name];
    if (value === undefined) throw new Error(`${rule.code}: message ${messageId} needs {{${name}}}`);
    return value;
  });
}

/** A diagnostic whose text is the rule's message `messageId` with `data` filled in (messageText). */
export function reportMessage(
  rule: Pick<Rule, 'code' | 'severity' | 'messages'>,
  ctx: RuleContext,
  range: Range,
  messageId: string,
  data: Readonly<Record<string, string>> = {},
  extras: DiagnosticExtras = {},
): HookDiagnostic {
  const message = messageText(rule, messageId, data);
  return { ...report(rule, ctx, range, message, extras), messageId };
}

export function fix(title: string, edits: Fix['edits'], isPreferred = false): Fix {
  return isPreferred ? { title, edits, isPreferred } : { title, edits };
}

/** `code` in backticks, for messages. */
export function q(text: string): string {
  return `\`${text}\``;
}

/** "a, b or c". */
export function orList(items: readonly string[]): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} or ${items[items.length - 1]}`;
}

/** "a, b and c". */
export function andList(items: readonly string[]): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
}
