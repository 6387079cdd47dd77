// What `hooksmith test --coverage` prints: the hook table and the line table (text), or both as
// data (JSON, under the test report's `coverage` key and in `--coverage-report json`).
import { OUTCOME_KINDS, OUTCOME_WORDS, totalHookPercent, type AgentHookCoverage } from './hook-coverage';
import { percentOf, summarise, type FileCoverage, type LineCoverage } from './line-coverage';

export interface CoverageResult {
  hooks: AgentHookCoverage[];
  lines: LineCoverage;
}

/** Said with every report: the durations of a coverage run carry the tracer's overhead. */
export const TRACER_NOTE =
  "measured with coverage on: hook durations include coverage.py's tracing overhead (budgets are judged on them)";

const pct = (n: number) => `${n.toFixed(n === 100 || n === 0 ? 0 : 1)}%`;

function table(rows: string[][]): string[] {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  // Numbers right-aligned between a name and free text (both left-aligned).
  const last = rows[0]!.length - 1;
  return rows.map((r) =>
    r
      .map((c, i) => (i && i < last ? c.padStart(widths[i]!) : c.padEnd(widths[i]!)))
      .join('  ')
      .trimEnd(),
  );
}

/**
 * How the tables are laid out: `table`, padded columns (a terminal); `list`, one line per row with
 * no padding, which wraps readably in a narrow panel (the editor's Test Results, #45 item 3).
 */
export type CoverageLayout = 'table' | 'list';

function hookOutcomes(h: AgentHookCoverage['hooks'][number]): string {
  const outcomes = OUTCOME_KINDS.filter((k) => h.outcomes[k]).map(
    (k) => `${OUTCOME_WORDS[k]} ${h.outcomes[k]}`,
  );
  return h.cases ? outcomes.join(', ') : 'NOT EXERCISED';
}

function hookLines(a: AgentHookCoverage, relative: (f: string) => string, layout: CoverageLayout): string[] {
  const out = [
    `Hook coverage of ${relative(a.agentRoot) || '.'}: ${a.exercised}/${a.hooks.length} hooks exercised (${pct(a.percent)})`,
  ];
  if (layout === 'list') {
    for (const h of a.hooks)
      out.push(
        `  ${h.cases ? '✓' : '✗'} ${h.hook} (${h.point}): ${h.cases ? `${h.cases} case${h.cases === 1 ? '' : 's'}, ` : ''}${hookOutcomes(h)}`,
      );
    if (a.unfired.length)
      out.push(
        `  hooked but fired by no case: ${a.unfired.map((u) => `${u.point} (${u.engine})`).join(', ')}`,
      );
    return out;
  }
  const rows = [['  hook', 'point', 'cases', 'outcomes']];
  for (const h of a.hooks) rows.push([`  ${h.hook}`, h.point, String(h.cases), hookOutcomes(h)]);
  // The outcomes column is free text: left-aligned after the padded ones.
  const widths = [0, 1, 2].map((i) => Math.max(...rows.map((r) => r[i]!.length)));
  for (const r of rows)
    out.push(
      `${r[0]!.padEnd(widths[0]!)}  ${r[1]!.padEnd(widths[1]!)}  ${r[2]!.padStart(widths[2]!)}  ${r[3]}`,
    );
  if (a.unfired.length)
    out.push(`  hooked but fired by no case: ${a.unfired.map((u) => `${u.point} (${u.engine})`).join(', ')}`);
  return out;
}

function fileRow(f: FileCoverage, relative: (f: string) => string): string[] {
  const s = summarise([f]);
  return [
    relative(f.file),
    String(s.statements),
    String(s.statements - s.coveredStatements),
    String(s.branches),
    String(s.branches - s.coveredBranches),
    pct(percentOf(s)),
    missedText(f),
  ];
}

/** "12, 27->29, 31-33": missed lines (ranges) and missed branch arcs, as coverage.py's report says them. */
export function missedText(f: FileCoverage): string {
  const missed = f.statements.filter((l) => !f.lineCases.get(l));
  const parts: string[] = [];
  for (let i = 0; i < missed.length; i++) {
    let j = i;
    while (
      j + 1 < missed.length &&
      f.statements.indexOf(missed[j + 1]!) === f.statements.indexOf(missed[j]!) + 1
    )
      j++;
    parts.push(i === j ? String(missed[i]) : `${missed[i]}-${missed[j]}`);
    i = j;
  }
  for (const [from, tos] of f.branches)
    if (f.lineCases.get(from))
      for (const t of tos) if (!t.cases) parts.push(`${from}->${t.to < 0 ? 'exit' : t.to}`);
  return parts.join(', ');
}

/** A file's line as the list layout says it: name, then its numbers and what it missed. */
function fileListLine(row: string[]): string {
  const [name, stmts, miss, branch, brMiss, cover, missing] = row;
  const branches = branch === '0' ? '' : `, ${branch} branches (${brMiss} missed)`;
  return `  ${name}: ${cover} of ${stmts} statements (${miss} missed)${branches}${missing ? `; missing ${missing}` : ''}`;
}

export function formatCoverageText(
  r: CoverageResult,
  relative: (f: string) => string,
  layout: CoverageLayout = 'table',
): string {
  const out: string[] = [''];
  for (const a of r.hooks) out.push(...hookLines(a, relative, layout), '');
  if (r.hooks.length > 1) out.push(`Hook coverage, all agents: ${pct(totalHookPercent(r.hooks))}`, '');
  for (const p of r.lines.problems) out.push(`Line coverage: not measured: ${p}`);
  const files = r.lines.files();
  if (files.length) {
    const rows = [['Name', 'Stmts', 'Miss', 'Branch', 'BrMiss', 'Cover', 'Missing']];
    rows.push(...files.map((f) => fileRow(f, relative)));
    const t = summarise(files);
    rows.push([
      'TOTAL',
      String(t.statements),
      String(t.statements - t.coveredStatements),
      String(t.branches),
      String(t.branches - t.coveredBranches),
      pct(percentOf(t)),
      '',
    ]);
    if (layout === 'list') {
      out.push('Line coverage (coverage.py):', ...rows.slice(1).map(fileListLine), `(${TRACER_NOTE})`);
      return out.join('\n') + '\n';
    }
    const lines = table(rows);
    const rule = '-'.repeat(Math.max(...lines.map((l) => l.length)));
    out.push('Line coverage (coverage.py):', lines[0]!, rule, ...lines.slice(1, -1), rule, lines.at(-1)!);
    out.push(`(${TRACER_NOTE})`);
  }
  return out.join('\n') + '\n';
}

export function coverageJson(r: CoverageResult, relative: (f: string) => string) {
  const files = r.lines.files();
  const total = summarise(files);
  return {
    note: TRACER_NOTE,
    hookPercent: Math.round(totalHookPercent(r.hooks) * 10) / 10,
    agents: r.hooks.map((a) => ({
      agentRoot: relative(a.agentRoot) || '.',
      exercised: a.exercised,
      hooks: a.hooks.map(({ file: _f, ...h }) => h),
      percent: Math.round(a.percent * 10) / 10,
      unfired: a.unfired,
    })),
    lines: {
      measured: r.lines.measured,
      problems: [...r.lines.problems],
      totals: { ...total, percent: Math.round(percentOf(total) * 10) / 10 },
      files: files.map((f) => ({
        file: relative(f.file),
        summary: summarise([f]),
        executedLines: f.statements.filter((l) => f.lineCases.get(l)),
        missingLines: f.statements.filter((l) => !f.lineCases.get(l)),
        branches: [...f.branches].flatMap(([line, tos]) =>
          tos.map((t) => ({ line, to: t.to, cases: t.cases })),
        ),
        /** Which cases ran each line: case id → its executed lines. */
        cases: Object.fromEntries(
          r.lines.caseIds().flatMap((id) => {
            const one = r.lines.files((c) => c === id).find((x) => x.file === f.file);
            const hit = one ? f.statements.filter((l) => one.lineCases.get(l)) : [];
            return hit.length ? [[caseLabel(id, relative), hit]] : [];
          }),
        ),
      })),
    },
  };
}

/** A case's id in the coverage data (coverageCaseId) as the user sees it: `file::name`. */
function caseLabel(id: string, relative: (f: string) => string): string {
  const at = id.indexOf('::');
  return at < 0 ? id : relative(id.slice(0, at)) + id.slice(at);
}
