// Regular expressions a user writes (`matches:` in scenarios and payload cases) run in RE2's
// linear time: a pattern such as `^(a+)+$` cannot hang a test run on a long text. RE2 syntax is
// JavaScript's without look-around and back-references.
import { RE2JS } from 're2js';

const compiled = new Map<string, RE2JS>();

/** Why `source` is no valid pattern (RE2's message), or undefined when it compiles. */
export function userRegexProblem(source: string): string | undefined {
  try {
    userRegex(source);
    return undefined;
  } catch (err) {
    return (err as Error).message;
  }
}

/** The compiled pattern (kept: a scenario's pattern is tested on every run); throws for an invalid one. */
export function userRegex(source: string): RE2JS {
  let re = compiled.get(source);
  if (!re) {
    re = RE2JS.compile(source);
    if (compiled.size > 1000) compiled.clear();
    compiled.set(source, re);
  }
  return re;
}

/** Whether `text` holds a match of the user's pattern `source` (anywhere, as RegExp.test). */
export function userRegexTest(source: string, text: string): boolean {
  return userRegex(source).matcher(text).find();
}
