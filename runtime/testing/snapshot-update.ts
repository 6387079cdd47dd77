// `hooksmith test --update`: writes what a snapshot expectation observed into its file, as
// `{snapshot: value}` in place of `snapshot` (or of the old value). YAML keeps its comments.
// Several `--update` runs (or the editor) may rewrite one file at once: each holds the file's lock,
// applies its snapshots to the file as it is then, and replaces it in one step.
import { parseDocument } from 'yaml';
import { updateFileAtomic } from '../workspace/atomic-file';
import { NotUtf8Error } from '../workspace/text-form';
import { failedCheck, verdictOf, type CaseResult } from './cases';
import { parseJson, stringifyJson } from '../json/lossless-json';

/**
 * Updates the files of the results' snapshot expectations; returns the files written. A file that
 * cannot be updated (gone, no longer parses, locked too long) is passed to `onError` and left as it was.
 */
export function writeSnapshots(
  results: readonly CaseResult[],
  onError: (file: string, err: Error) => void = (_f, err) => {
    throw err;
  },
): string[] {
  const written: string[] = [];
  for (const r of results) {
    const snaps = r.expectations.filter((e) => e.observed !== undefined && failedCheck(e));
    if (!snaps.length) continue;
    const file = r.case.file;
    try {
      updateFileAtomic(file, (text) => {
        if (text === undefined) throw new Error(`${file}: gone before its snapshots could be written`);
        if (file.endsWith('.json')) {
          const data = parseJson(text) as Record<string, unknown>;
          for (const s of snaps) setIn(data, s.path, { snapshot: s.observed });
          return stringifyJson(data, 2) + '\n';
        }
        const doc = parseDocument(text);
        for (const s of snaps) doc.setIn(s.path, doc.createNode({ snapshot: s.observed }));
        return doc.toString();
      });
    } catch (err) {
      onError(
        file,
        err instanceof NotUtf8Error
          ? new Error(`${err.message}: left as it was (a rewrite would not keep those bytes)`)
          : (err as Error),
      );
      continue;
    }
    for (const s of snaps) s.passed = true;
    if (r.status === 'failed') r.status = verdictOf(r.expectations);
    written.push(file);
  }
  return written;
}

function setIn(obj: Record<string, unknown>, path: readonly (string | number)[], value: unknown): void {
  let cur: Record<string | number, unknown> = obj;
  for (const seg of path.slice(0, -1)) {
    if (cur[seg] === null || typeof cur[seg] !== 'object') cur[seg] = {};
    cur = cur[seg] as Record<string | number, unknown>;
  }
  cur[path[path.length - 1]!] = value;
}
