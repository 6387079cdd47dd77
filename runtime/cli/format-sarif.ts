// `--format sarif`: SARIF 2.1.0 as GitHub code scanning takes it — rules with help links and
// default levels, results with paths relative to %SRCROOT% and 1-based regions.
import { pathToFileURL } from 'node:url';
import { REPOSITORY_URL, ruleDocsUrl, type Severity } from '../rules/diagnostics';
import { RULES } from '../rules';
import type { Finding } from './format-finding';

const LEVEL: Record<Severity, 'error' | 'warning' | 'note'> = {
  error: 'error',
  warning: 'warning',
  information: 'note',
  hint: 'note',
};

function region(r: { line: number; column: number; endLine: number; endColumn: number }) {
  return {
    startLine: r.line,
    startColumn: r.column,
    endLine: r.endLine,
    endColumn: Math.max(r.endColumn, r.column),
  };
}

function location(file: string, r: { line: number; column: number; endLine: number; endColumn: number }) {
  return {
    physicalLocation: {
      artifactLocation: { uri: encodeURI(file), uriBaseId: '%SRCROOT%' },
      region: region(r),
    },
  };
}

export function toSarif(findings: readonly Finding[], version: string, cwd: string): object {
  const rules = RULES.map((r) => ({
    id: r.code,
    name: r.code.replace(/(^|-)([a-z])/g, (_m, _d, c: string) => c.toUpperCase()),
    shortDescription: { text: r.title },
    fullDescription: { text: r.docs.what },
    helpUri: ruleDocsUrl(r.code),
    help: { text: `${r.docs.why}\n\nFix: ${r.docs.fix}` },
    defaultConfiguration: { level: LEVEL[r.severity] },
  }));
  const index = new Map(rules.map((r, i) => [r.id, i]));
  const results = findings.map((f) => ({
    ruleId: f.code,
    ...(index.has(f.code) ? { ruleIndex: index.get(f.code) } : {}),
    level: LEVEL[f.severity],
    message: { text: f.message },
    locations: [location(f.file, f)],
    ...(f.related.length
      ? {
          relatedLocations: f.related.map((r, i) => ({
            id: i + 1,
            ...location(r.file, r),
            message: { text: r.message },
          })),
        }
      : {}),
  }));
  return {
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    version: '2.1.0',
    runs: [
      {
        tool: {
          driver: {
            name: 'hooksmith',
            version,
            semanticVersion: version,
            informationUri: REPOSITORY_URL,
            rules,
          },
        },
        originalUriBaseIds: { '%SRCROOT%': { uri: pathToFileURL(cwd).href.replace(/\/?$/, '/') } },
        results,
      },
    ],
  };
}

export function formatSarif(findings: readonly Finding[], version: string, cwd: string): string {
  return JSON.stringify(toSarif(findings, version, cwd), null, 2) + '\n';
}
