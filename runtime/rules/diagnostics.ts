// Diagnostics as the core produces them; the server and the CLI translate these.
import type { Range, TextEdit } from '../python/model';

export type { TextEdit };

export type Severity = 'error' | 'warning' | 'information' | 'hint';

/** A mechanical fix a rule offers; the server turns it into a code action. */
export interface Fix {
  title: string;
  /** Edits in the diagnostic's own file. */
  edits: TextEdit[];
  /** The one fix to apply without asking (and in source.fixAll.hooksmith). */
  isPreferred?: boolean;
}

export interface RelatedLocation {
  file: string;
  range: Range;
  message: string;
}

export interface HookDiagnostic {
  code: string;
  severity: Severity;
  message: string;
  file: string;
  range: Range;
  related?: RelatedLocation[];
  /** LSP tags: unnecessary code is shown faded. */
  tags?: ('unnecessary' | 'deprecated')[];
  fixes?: Fix[];
  /** Where the code is documented, when not on its rule page (ruleDocsUrl): a case file's checks. */
  docsUrl?: string;
  /**
   * The engine package (`rasa-pro`, `cayu`) this diagnostic reports as not installed in the interpreter,
   * set by the rule that knows it (import-error), so the server never reads it out of the message.
   */
  absentEnginePackage?: string;
  /** Which of its rule's `messages` this is (rules that declare them). */
  messageId?: string;
}

/** The repository (package.json's `repository`; a test keeps them equal). */
export const REPOSITORY_URL = 'https://github.com/hooksmith/hooksmith';
/** Where a code's documentation lives on the web: its page, docs/rules/<code>.md (scripts/gen-rule-docs.ts). */
export function ruleDocsUrl(code: string): string {
  return `${REPOSITORY_URL}/blob/main/docs/rules/${code}.md`;
}

/** The rule code whose page `url` is (ruleDocsUrl's inverse), or undefined. */
export function ruleCodeOfDocsUrl(url: string): string | undefined {
  const prefix = `${REPOSITORY_URL}/blob/main/docs/rules/`;
  if (!url.startsWith(prefix)) return undefined;
  return /^([a-z0-9-]+)\.md$/.exec(url.slice(prefix.length))?.[1];
}
