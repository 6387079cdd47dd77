// A measured file as an editor's coverage API wants it (VS Code's FileCoverage and its details):
// per statement line the number of cases that ran it, and per branch line each destination with
// the cases that took it and a label ("to line 14", "exit"). No vscode import: client/ maps it.
import { summarise, type FileCoverage } from './line-coverage';

export interface BranchDetail {
  /** Destination line (coverage.py: negative for leaving the function). */
  to: number;
  /** Cases that took it. */
  cases: number;
  label: string;
}

export interface LineDetail {
  /** 1-based. */
  line: number;
  /** Cases that ran it (0: missed). */
  cases: number;
  branches: BranchDetail[];
}

export interface CoverageCounts {
  statements: { covered: number; total: number };
  branches: { covered: number; total: number };
}

export function coverageCounts(f: FileCoverage): CoverageCounts {
  const s = summarise([f]);
  return {
    statements: { covered: s.coveredStatements, total: s.statements },
    branches: { covered: s.coveredBranches, total: s.branches },
  };
}

export function lineDetails(f: FileCoverage): LineDetail[] {
  return [...f.statements]
    .sort((a, b) => a - b)
    .map((line) => ({
      line,
      cases: f.lineCases.get(line) ?? 0,
      branches: (f.branches.get(line) ?? []).map((b) => ({
        to: b.to,
        cases: b.cases,
        label: b.to > 0 ? `to line ${b.to}` : 'exit',
      })),
    }));
}
