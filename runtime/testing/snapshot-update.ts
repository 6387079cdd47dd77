// `hooksmith test --update`: writes what a snapshot expectation observed into its file, as
// `{snapshot: value}` in place of `snapshot` (or of the old value). YAML keeps its comments.
import * as fs from 'node:fs';
import { parseDocument } from 'yaml';
import { failedCheck, verdictOf, type CaseResult } from './cases';

/** Updates the files of the results' snapshot expectations; returns the files written. */
export function writeSnapshots(results: readonly CaseResult[]): string[] {
  const written: string[] = [];
  for (const r of results) {
    const snaps = r.expectations.filter((e) => e.observed !== undefined && failedCheck(e));
    if (!snaps.length) continue;
    const file = r.case.file;
    const text = fs.readFileSync(file, 'utf8');
    let next: string;
    if (file.endsWith('.json')) {
      const data = JSON.parse(text) as Record<string, unknown>;
      for (const s of snaps) setIn(data, s.path, { snapshot: s.observed });
      next = JSON.stringify(data, null, 2) + '\n';
    } else {
      const doc = parseDocument(text);
      for (const s of snaps) doc.setIn(s.path, doc.createNode({ snapshot: s.observed }));
      next = doc.toString();
    }
    fs.writeFileSync(file, next);
    for (const s of snaps) s.passed = true;
    if (r.status === 'failed') r.status = verdictOf(r.expectations);
    written.push(file);
  }
  return written;
}

function setIn(obj: Record<string, unknown>, path: readonly (string | number)[], value: unknown): void {
  let cur: Record<string | number, unknown> = obj;
  for (const seg of path.slice(0, -1)) cur = cur[seg] as Record<string | number, unknown>;
  cur[path[path.length - 1]!] = value;
}
