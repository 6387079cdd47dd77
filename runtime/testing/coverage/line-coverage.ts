// Line and branch coverage of an agent's own files, as the hosts' coverage.py measured them while
// the cases ran: kept per case (which cases ran a line), merged for the reports and the editor.
import type { HostCoverage } from '../../host/protocol';

/** A file's measurable shape, as coverage.py counts it: statements, and destinations per branch line. */
export interface FileShape {
  statements: number[];
  branches: Map<number, number[]>;
}

/** What one case ran in one file. */
export interface FileHits {
  lines: Set<number>;
  /** "from>to" of the branch arcs taken. */
  arcs: Set<string>;
}

/** The key of a case's data: its absolute file and name. */
export const coverageCaseId = (c: { file: string; name: string }) => `${c.file}::${c.name}`;

export const arcKey = (from: number, to: number) => `${from}>${to}`;

/** A file's merged coverage: per line and per branch arc, the cases that ran it. */
export interface FileCoverage {
  file: string;
  statements: number[];
  /** Line → number of cases that ran it (0: missed). */
  lineCases: Map<number, number>;
  /** Branch line → its destinations, each with the number of cases that took it. */
  branches: Map<number, { to: number; cases: number }[]>;
  /** Cases (by id) that ran something in the file. */
  cases: string[];
}

export interface CoverageSummary {
  statements: number;
  coveredStatements: number;
  branches: number;
  coveredBranches: number;
}

/** The sink a runner per agent feeds, and the case its next answers belong to. */
export interface AgentCoverageSink {
  begin(caseId: string): void;
  sink(answer: HostCoverage, agentRoot: string): void;
}

export class LineCoverage {
  private readonly shapes = new Map<string, FileShape>();
  /** case id → file → hits. */
  private readonly perCase = new Map<string, Map<string, FileHits>>();
  /** Why line coverage could not be measured (coverage.py missing or failed), once each. */
  readonly problems = new Set<string>();

  /** A sink for one runner (one agent's cases, one after another). */
  agent(): AgentCoverageSink {
    let current = '';
    return {
      begin: (caseId) => (current = caseId),
      sink: (answer) => this.add(current, answer),
    };
  }

  add(caseId: string, answer: HostCoverage): void {
    if (answer.error) this.problems.add(answer.error);
    for (const [file, d] of Object.entries(answer.described ?? {}))
      this.shapes.set(file, { statements: d.statements, branches: new Map(d.branches) });
    const files = this.perCase.get(caseId) ?? new Map<string, FileHits>();
    this.perCase.set(caseId, files);
    for (const [file, hit] of Object.entries(answer.files ?? {})) {
      const into = files.get(file) ?? { lines: new Set(), arcs: new Set() };
      files.set(file, into);
      for (const l of hit.lines) into.lines.add(l);
      for (const [a, b] of hit.arcs) into.arcs.add(arcKey(a, b));
    }
  }

  /** Lists the cases in this order (cases run side by side on several hosts finish in any order). */
  orderCases(caseIds: readonly string[]): void {
    const kept = new Map<string, Map<string, FileHits>>();
    for (const id of caseIds) {
      const files = this.perCase.get(id);
      if (files) kept.set(id, files);
    }
    for (const [id, files] of this.perCase) if (!kept.has(id)) kept.set(id, files);
    this.perCase.clear();
    for (const [id, files] of kept) this.perCase.set(id, files);
  }

  /** Anything was measured (else only problems, or coverage was not asked). */
  get measured(): boolean {
    return this.shapes.size > 0;
  }

  caseIds(): string[] {
    return [...this.perCase.keys()];
  }

  /** Every measured file, merged over `only` cases (default: all), sorted by path. */
  files(only?: (caseId: string) => boolean): FileCoverage[] {
    const out: FileCoverage[] = [];
    for (const [file, shape] of [...this.shapes].sort(([a], [b]) => a.localeCompare(b))) {
      const lineCases = new Map(shape.statements.map((l) => [l, 0]));
      const arcCases = new Map<string, number>();
      const cases: string[] = [];
      for (const [caseId, files] of this.perCase) {
        const hits = files.get(file);
        if (!hits || (only && !only(caseId))) continue;
        if (hits.lines.size) cases.push(caseId);
        for (const l of hits.lines) if (lineCases.has(l)) lineCases.set(l, lineCases.get(l)! + 1);
        for (const k of hits.arcs) arcCases.set(k, (arcCases.get(k) ?? 0) + 1);
      }
      const branches = new Map(
        [...shape.branches].map(([from, tos]) => [
          from,
          tos.map((to) => ({ to, cases: arcCases.get(arcKey(from, to)) ?? 0 })),
        ]),
      );
      out.push({ file, statements: shape.statements, lineCases, branches, cases });
    }
    return out;
  }
}

export function summarise(files: readonly FileCoverage[]): CoverageSummary {
  const s = { statements: 0, coveredStatements: 0, branches: 0, coveredBranches: 0 };
  for (const f of files) {
    s.statements += f.statements.length;
    s.coveredStatements += [...f.lineCases.values()].filter((n) => n > 0).length;
    for (const tos of f.branches.values()) {
      s.branches += tos.length;
      s.coveredBranches += tos.filter((t) => t.cases > 0).length;
    }
  }
  return s;
}

/** coverage.py's total: statements and branches together (100 when there is nothing to cover). */
export function percentOf(s: CoverageSummary): number {
  const all = s.statements + s.branches;
  return all ? ((s.coveredStatements + s.coveredBranches) * 100) / all : 100;
}
