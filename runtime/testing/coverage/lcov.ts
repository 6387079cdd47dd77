// LCOV tracefile (geninfo's format, read by genhtml, Codecov, Coveralls and VS Code coverage
// extensions): DA per statement with the number of cases that ran it, BRDA per branch destination.
import type { FileCoverage } from './line-coverage';

// LCOV has no escape: a line break in a file name would end the SF: line and forge records.
const UNWRITABLE_NAME = /[\n\r]/;

/** The files formatLcov leaves out: their name cannot be written in LCOV. */
export function lcovUnwritable(files: readonly FileCoverage[], relative: (file: string) => string): string[] {
  return files.map((f) => relative(f.file)).filter((name) => UNWRITABLE_NAME.test(name));
}

export function formatLcov(files: readonly FileCoverage[], relative: (file: string) => string): string {
  const out: string[] = [];
  for (const f of files) {
    if (UNWRITABLE_NAME.test(relative(f.file))) continue;
    out.push('TN:', `SF:${relative(f.file)}`);
    let lh = 0;
    for (const line of f.statements) {
      const n = f.lineCases.get(line) ?? 0;
      if (n > 0) lh++;
      out.push(`DA:${line},${n}`);
    }
    let brf = 0;
    let brh = 0;
    for (const [line, tos] of [...f.branches].sort(([a], [b]) => a - b)) {
      // geninfo writes "-" for a branch whose line never ran, 0 for one not taken from a line that ran.
      const ran = (f.lineCases.get(line) ?? 0) > 0;
      tos.forEach((t, i) => {
        brf++;
        if (t.cases > 0) brh++;
        out.push(`BRDA:${line},0,${i},${ran ? t.cases : '-'}`);
      });
    }
    out.push(`BRF:${brf}`, `BRH:${brh}`, `LF:${f.statements.length}`, `LH:${lh}`, 'end_of_record');
  }
  return out.join('\n') + '\n';
}
