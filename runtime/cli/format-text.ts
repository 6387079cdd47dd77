// `--format text`: one compiler-style line per finding, then a summary line.
import type { Finding } from './format-finding';

const WORD: Record<Finding['severity'], string> = {
  error: 'error',
  warning: 'warning',
  information: 'info',
  hint: 'hint',
};

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

export function formatText(findings: readonly Finding[], fileCount: number): string {
  const lines = findings.map((f) => {
    const head = `${f.file}:${f.line}:${f.column}: ${WORD[f.severity]} ${f.code} ${f.message}`;
    const rel = f.related.map((r) => `    ${r.file}:${r.line}:${r.column}: note: ${r.message}`);
    return [head, ...rel].join('\n');
  });
  const count = (s: Finding['severity']) => findings.filter((f) => f.severity === s).length;
  const files = plural(fileCount, 'file');
  const summary = findings.length
    ? `${plural(count('error'), 'error')}, ${plural(count('warning'), 'warning')}, ${plural(count('information') + count('hint'), 'info')} in ${files} checked`
    : `no problems in ${files} checked`;
  return [...lines, summary].join('\n') + '\n';
}
