// `--format json`: one array of {file, line, column, endLine, endColumn, severity, code, message}
// (DESIGN.md, CLI contract). Related locations are not part of the contract and are left out.
import type { Finding } from './format-finding';
import { stringifyJson } from '../json/lossless-json';

export function formatJson(findings: readonly Finding[]): string {
  const out = findings.map(({ file, line, column, endLine, endColumn, severity, code, message }) => ({
    file,
    line,
    column,
    endLine,
    endColumn,
    severity,
    code,
    message,
  }));
  return stringifyJson(out, 2) + '\n';
}
