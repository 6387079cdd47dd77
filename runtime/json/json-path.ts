// Zod issues → one line each, naming the JSON path the way a person finds it in the file:
// "completions[1].tool_calls[0].tool_name: expected string".
import type { z } from 'zod';

export function jsonPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const seg of path) {
    if (typeof seg === 'number') out += `[${seg}]`;
    else if (typeof seg === 'string' && /^[A-Za-z_][A-Za-z0-9_]*$/.test(seg)) out += out ? `.${seg}` : seg;
    else out += `[${JSON.stringify(String(seg))}]`;
  }
  return out || '(root)';
}

/** Zod's message without its "Invalid input: " prefix, which says nothing the path does not. */
function shortMessage(issue: z.core.$ZodIssue): string {
  if (issue.code === 'unrecognized_keys')
    return `unknown key${issue.keys.length > 1 ? 's' : ''} ${issue.keys.map((k) => `'${k}'`).join(', ')}`;
  return issue.message.replace(/^Invalid input: /, '').replace(/, received undefined$/, ' (missing)');
}

/** A union branch that fails with this message defers to the other branch (see expect-schema.ts). */
export const OTHER_BRANCH = '(another branch applies)';

/** One line per issue: "<path>: <what is wrong>". A failed union says why its applicable branch failed. */
export function formatIssues(error: z.ZodError, prefix: readonly PropertyKey[] = []): string[] {
  return flatten(error.issues, prefix);
}

function flatten(issues: readonly z.core.$ZodIssue[], prefix: readonly PropertyKey[]): string[] {
  return issues.flatMap((issue) => {
    const at = [...prefix, ...issue.path];
    if (issue.code === 'invalid_union') {
      const own = issue.errors.filter((b) => !JSON.stringify(b).includes(OTHER_BRANCH));
      if (own.length < issue.errors.length && own.length) return flatten(own[own.length - 1]!, at);
    }
    return [`${jsonPath(at)}: ${shortMessage(issue)}`];
  });
}
