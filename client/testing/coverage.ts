// Run with Coverage in the Testing view (#32): the selected cases run on a host of their own whose
// coverage.py measures the agent's files (runtime/testing/coverage); each measured file goes to
// VS Code's coverage API (the Test Coverage view, the gutter), and Test Results gets the hook and
// line tables `hooksmith test --coverage` prints. Without coverage.py the cases still run and the
// output says what to install; hook coverage needs nothing.
import * as vscode from 'vscode';
import type { CaseResult } from '../../runtime/testing/cases';
import { formatCoverageText } from '../../runtime/testing/coverage/coverage-report';
import { coverageCounts, lineDetails } from '../../runtime/testing/coverage/editor-detail';
import { hookCoverage, type AgentHookCoverage } from '../../runtime/testing/coverage/hook-coverage';
import { LineCoverage, type FileCoverage } from '../../runtime/testing/coverage/line-coverage';
import { crlf } from './results';
import { pickInterpreter } from '../python/interpreter';

export const COVERAGE_PROFILE = 'Run with Coverage';

/** A measured file as VS Code shows it; its details come from the data it was made from. */
class HookFileCoverage extends vscode.FileCoverage {
  constructor(readonly data: FileCoverage) {
    const counts = coverageCounts(data);
    const branches = counts.branches.total
      ? new vscode.TestCoverageCount(counts.branches.covered, counts.branches.total)
      : undefined;
    super(
      vscode.Uri.file(data.file),
      new vscode.TestCoverageCount(counts.statements.covered, counts.statements.total),
      branches,
    );
  }
}

/** Per line: executed by how many cases, and each branch destination taken or not. */
function details(f: FileCoverage): vscode.StatementCoverage[] {
  return lineDetails(f).map((d) => {
    const at = new vscode.Position(d.line - 1, 0);
    const branches = d.branches.map(
      (b) =>
        new vscode.BranchCoverage(b.cases, b.to > 0 ? new vscode.Position(b.to - 1, 0) : undefined, b.label),
    );
    return new vscode.StatementCoverage(d.cases, at, branches);
  });
}

/** What the last coverage run gave the editor, for tests of it (`hooksmith.lastCoverage`). */
export interface CoverageReport {
  files: {
    file: string;
    covered: number[];
    missed: number[];
    branches: { covered: number; total: number };
  }[];
  hooks: AgentHookCoverage[];
  problems: string[];
  /** The tables as Test Results shows them. */
  text: string;
}

/** One coverage run: the sink its runner feeds, then what it hands to the run. */
export class CoverageRun {
  readonly lines = new LineCoverage();
  private readonly agent = this.lines.agent();
  readonly sink = this.agent.sink;

  /** The case whose hooks run next (coverage.py's data is kept per case). */
  begin(caseId: string): void {
    this.agent.begin(caseId);
  }

  /** Adds every measured file to `run` and appends the tables to its output; returns what it added. */
  async finish(
    run: vscode.TestRun,
    results: readonly CaseResult[],
    relative: (f: string) => string,
  ): Promise<CoverageReport> {
    const files = this.lines.files();
    for (const f of files) run.addCoverage(new HookFileCoverage(f));
    const hooks = await hookCoverage(results);
    const text = editorWords(formatCoverageText({ hooks, lines: this.lines }, relative, 'list'));
    run.appendOutput(crlf(text.split('\n')));
    return {
      files: files.map((f) => ({
        file: f.file,
        covered: f.statements.filter((l) => f.lineCases.get(l)),
        missed: f.statements.filter((l) => !f.lineCases.get(l)),
        branches: coverageCounts(f).branches,
      })),
      hooks,
      problems: [...this.lines.problems].map(editorWords),
      text,
    };
  }
}

/** The host's hint names the CLI's flag too; the editor names its own ways (#45 item 2). */
const editorWords = (text: string) =>
  text.replace(
    /\(--python, hooksmith\.pythonPath\)/g,
    '(Python: Select Interpreter, or hooksmith.pythonPath)',
  );

/** The interpreter a "coverage.py is not installed for …" problem names, if any is one. */
export function missingCoverageFor(problems: readonly string[]): string | undefined {
  for (const p of problems) {
    const m = /coverage\.py is not installed for (.+?): install it/.exec(p);
    if (m) return m[1];
  }
  return undefined;
}

/** The command that installs coverage.py for `python` (Debian's own Python takes the distro package). */
export function coverageInstallCommand(python: string): string {
  if (/^\/usr\/bin\/python3(\.\d+)?$/.test(python)) return 'sudo apt-get install python3-coverage';
  return `${/\s/.test(python) ? JSON.stringify(python) : python} -m pip install coverage`;
}

/**
 * Coverage ran without coverage.py: a toast says so (not only the last line of Test Results), with
 * what to do, as for debugpy: install it (in a terminal: it may ask for a password), or pick another
 * interpreter (#45 item 3).
 */
export async function offerCoverage(python: string): Promise<void> {
  const install = 'Install coverage';
  const choose = 'Choose Interpreter';
  const choice = await vscode.window.showWarningMessage(
    `Hooksmith: line coverage was not measured: coverage.py is not installed for ${python}. Hook coverage is in Test Results; install coverage.py, or choose an interpreter that has it.`,
    install,
    choose,
  );
  if (choice === install) {
    const terminal = vscode.window.createTerminal('Hooksmith: install coverage');
    terminal.show();
    terminal.sendText(coverageInstallCommand(python), true);
  } else if (choice === choose) await pickInterpreter();
}

/** The Coverage profile; `execute` runs the request on a runner feeding a CoverageRun. */
export function registerCoverageProfile(
  controller: vscode.TestController,
  execute: (request: vscode.TestRunRequest, token: vscode.CancellationToken) => Promise<void>,
): vscode.TestRunProfile {
  const profile = controller.createRunProfile(
    COVERAGE_PROFILE,
    vscode.TestRunProfileKind.Coverage,
    execute,
    true,
  );
  profile.loadDetailedCoverage = async (_run, coverage) =>
    coverage instanceof HookFileCoverage ? details(coverage.data) : [];
  return profile;
}
