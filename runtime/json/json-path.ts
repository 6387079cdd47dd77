// Zod issues → one line each, naming the JSON path the way a person finds it in the file:
// "completions[1].tool_calls[0].tool_name: expected string". The same issues, structured
// (path, unknown key, did-you-mean), place the editor's diagnostics on their key or value.
import leven from 'leven';
import type { z } from 'zod';
import { keysAt } from './schema-keys';

export function jsonPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const seg of path) {
    if (typeof seg === 'number') out += `[${seg}]`;
    else if (typeof seg === 'string' && /^[A-Za-z_][A-Za-z0-9_]*$/.test(seg)) out += out ? `.${seg}` : seg;
    else out += `[${JSON.stringify(String(seg))}]`;
  }
  return out || '(root)';
}

/** What kind of problem an issue is (the editor's diagnostic code follows it). */
export type IssueKind = 'unknown-key' | 'invalid-value' | 'invalid-regex';

/** One problem of a document: where (`path`; `key` for an unknown key under it) and what. */
export interface FileIssue {
  path: PropertyKey[];
  message: string;
  kind: IssueKind;
  /** The unknown key (it stands under `path`). */
  key?: string;
  /** The key meant, for an unknown key one or two edits from a known one. */
  suggestion?: string;
}

/** Set in a custom issue's `params.kind` to give it its own kind (e.g. an invalid `matches:` regex). */
export const ISSUE_KIND_PARAM = 'kind';
/** With kind `unknown-key` (the issue's path ends at the key): the key meant. */
export const SUGGESTION_PARAM = 'suggestion';

/** Zod's message without its "Invalid input: " prefix, which says nothing the path does not. */
function shortMessage(issue: z.core.$ZodIssue): string {
  return issue.message.replace(/^Invalid input: /, '').replace(/, received undefined$/, ' (missing)');
}

/** A union branch that fails with this message defers to the other branch (see expect-schema.ts). */
export const OTHER_BRANCH = '(another branch applies)';

/** "<path>: <what is wrong>", the line `hooksmith test` prints. */
export const formatIssue = (i: FileIssue): string => `${jsonPath(i.path)}: ${i.message}`;

/** One line per issue: "<path>: <what is wrong>". A failed union says why its applicable branch failed. */
export function formatIssues(error: z.ZodError, prefix: readonly PropertyKey[] = []): string[] {
  return fileIssues(error, prefix).map(formatIssue);
}

/**
 * The issues of a failed parse, structured. With `schema` (the one that failed), an unknown key
 * one or two edits from a key the schema allows there gets that key as its suggestion.
 */
export function fileIssues(
  error: z.ZodError,
  prefix: readonly PropertyKey[] = [],
  schema?: z.ZodType,
): FileIssue[] {
  return flatten(error.issues, prefix, (at) => (schema ? keysAt(schema, at.slice(prefix.length)) : []));
}

/** The known key `key` likely misspells, or undefined. */
export function nearestKey(key: string, known: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = 3;
  for (const k of known) {
    const d = leven(key, k);
    if (d < bestDistance && d > 0) [best, bestDistance] = [k, d];
  }
  return best;
}

/** A union branch that did not apply: it failed on the value's own type, at the union's path. */
const inapplicable = (branch: readonly z.core.$ZodIssue[]) =>
  branch.some((i) => i.path.length === 0 && (i.code === 'invalid_type' || i.code === 'invalid_value'));

function flatten(
  issues: readonly z.core.$ZodIssue[],
  prefix: readonly PropertyKey[],
  known: (at: readonly PropertyKey[]) => string[],
): FileIssue[] {
  return issues.flatMap((issue): FileIssue[] => {
    const at = [...prefix, ...issue.path];
    if (issue.code === 'invalid_union') {
      const own = issue.errors.filter((b) => !JSON.stringify(b).includes(OTHER_BRANCH));
      if (own.length < issue.errors.length && own.length) return flatten(own[own.length - 1]!, at, known);
      // The one branch for the value's type (an object among strings and lists) says what is wrong.
      const applicable = own.filter((b) => !inapplicable(b));
      if (applicable.length === 1) return flatten(applicable[0]!, at, known);
    }
    if (issue.code === 'unrecognized_keys')
      return issue.keys.map((key) => {
        const suggestion = nearestKey(key, known(at));
        const meant = suggestion ? ` (did you mean '${suggestion}'?)` : '';
        return { path: at, key, kind: 'unknown-key', message: `unknown key '${key}'${meant}`, suggestion };
      });
    const params = issue.code === 'custom' ? issue.params : undefined;
    const kind = params?.[ISSUE_KIND_PARAM] as IssueKind | undefined;
    if (kind === 'unknown-key' && at.length) {
      const key = String(at[at.length - 1]);
      const suggestion = params?.[SUGGESTION_PARAM] as string | undefined;
      return [{ path: at.slice(0, -1), key, kind, message: issue.message, suggestion }];
    }
    return [{ path: at, kind: kind ?? 'invalid-value', message: shortMessage(issue) }];
  });
}
