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

/** One line per issue: "<path>: <what is wrong>". */
export function formatIssues(error: z.ZodError, prefix: readonly PropertyKey[] = []): string[] {
  return error.issues.map((issue) => `${jsonPath([...prefix, ...issue.path])}: ${shortMessage(issue)}`);
}
