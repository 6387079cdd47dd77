// A fuzz run's smallest failing payload saved as a payload case: `<agent>/.hooksmith/payloads/NAME.json`,
// where `hooksmith test` finds it. NAME is a plain file name, so a case is never written elsewhere.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { createFileAtomic } from '../workspace/atomic-file';

/** Why `name` is not a plain file name for a saved case, or undefined when it is one. */
export function saveNameProblem(name: string): string | undefined {
  const rule = 'a plain file name (no folder separators, no "..", no control characters)';
  if (!name.trim()) return `the name is empty: it must be ${rule}`;
  // eslint-disable-next-line no-control-regex -- control characters are what is refused
  if (/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/u.test(name))
    return `the name holds a control character: it must be ${rule}`;
  if (/[/\\]/.test(name) || path.isAbsolute(name))
    return `the name holds a folder separator: it must be ${rule}`;
  if (name.includes('..')) return `the name holds "..": it must be ${rule}`;
  if (name.startsWith('.')) return `the name starts with "." (a hidden file): it must be ${rule}`;
  if (/[:*?"<>|]/.test(name)) return `the name holds one of : * ? " < > |: it must be ${rule}`;
  if (Buffer.byteLength(name) > 200) return `the name is over 200 bytes: it must be ${rule}`;
  return undefined;
}

/**
 * Writes `text` as a new case named `name` (`name-2`, … when taken; an existing file is never
 * replaced, and the file appears complete); returns its path. Throws for a name saveNameProblem refuses.
 */
export function saveFuzzCase(agentRoot: string, name: string, text: string): string {
  const base = name.replace(/\.json$/i, '');
  const problem = saveNameProblem(base);
  if (problem) throw new Error(problem);
  const dir = path.join(agentRoot, '.hooksmith', 'payloads');
  fs.mkdirSync(dir, { recursive: true });
  for (let i = 1; ; i++) {
    const file = path.join(dir, i === 1 ? `${base}.json` : `${base}-${i}.json`);
    try {
      createFileAtomic(file, text);
      return file;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
  }
}
