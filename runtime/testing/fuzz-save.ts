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

/** A case that cannot be saved where it belongs: said plainly (exit 2), nothing written. */
export class SaveCaseError extends Error {
  readonly code = 'ESAVECASE';
}

/**
 * `<agentRoot>/.hooksmith/payloads`, made when missing. Each part must be a folder inside the
 * agent: a link leading out of it (the case would land elsewhere) or a file in the way is refused.
 */
function payloadsFolder(agentRoot: string): string {
  const root = fs.realpathSync(agentRoot);
  let dir = agentRoot;
  for (const part of ['.hooksmith', 'payloads']) {
    dir = path.join(dir, part);
    try {
      fs.mkdirSync(dir);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    const shown = path.join(...path.relative(agentRoot, dir).split(path.sep));
    const st = fs.statSync(dir, { throwIfNoEntry: false });
    if (!st?.isDirectory())
      throw new SaveCaseError(`${shown} in the agent ${agentRoot} is not a folder: the case was not saved`);
    const real = fs.realpathSync(dir);
    if (real !== root && !real.startsWith(root + path.sep))
      throw new SaveCaseError(
        `${shown} in the agent ${agentRoot} leads outside the agent (to ${real}): the case was not saved`,
      );
  }
  return dir;
}

/**
 * Writes `text` as a new case named `name` (`name-2`, … when taken; an existing file is never
 * replaced, and the file appears complete); returns its path. Throws for a name saveNameProblem
 * refuses, and SaveCaseError when the payloads folder is no folder of the agent's.
 */
export function saveFuzzCase(agentRoot: string, name: string, text: string): string {
  const base = name.replace(/\.json$/i, '');
  const problem = saveNameProblem(base);
  if (problem) throw new SaveCaseError(problem);
  const dir = payloadsFolder(agentRoot);
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
