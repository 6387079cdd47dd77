// A diagnostic as the CLI prints it: file relative to the current directory, 1-based
// line and column (columns count UTF-16 code units, as LSP and SARIF do).
import * as path from 'node:path';
import type { HookDiagnostic, Severity } from '../rules/diagnostics';

export interface Finding {
  file: string;
  line: number;
  column: number;
  endLine: number;
  endColumn: number;
  severity: Severity;
  code: string;
  message: string;
  related: {
    file: string;
    line: number;
    column: number;
    endLine: number;
    endColumn: number;
    message: string;
  }[];
}

export function relativeFile(file: string, cwd: string): string {
  const rel = path.relative(cwd, file);
  return (rel === '' ? path.basename(file) : rel).split(path.sep).join('/');
}

export function toFinding(d: HookDiagnostic, cwd: string): Finding {
  return {
    file: relativeFile(d.file, cwd),
    line: d.range.start.line + 1,
    column: d.range.start.character + 1,
    endLine: d.range.end.line + 1,
    endColumn: d.range.end.character + 1,
    severity: d.severity,
    code: d.code,
    message: d.message,
    related: (d.related ?? []).map((r) => ({
      file: relativeFile(r.file, cwd),
      line: r.range.start.line + 1,
      column: r.range.start.character + 1,
      endLine: r.range.end.line + 1,
      endColumn: r.range.end.character + 1,
      message: r.message,
    })),
  };
}
