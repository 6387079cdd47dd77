// Core diagnostics (runtime/rules/diagnostics.ts) → LSP diagnostics.
import { DiagnosticSeverity, DiagnosticTag, type Diagnostic } from 'vscode-languageserver';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { HookDiagnostic, Severity } from '../runtime/rules/diagnostics';
import { ruleDocsUrl } from '../runtime/rules/diagnostics';
import { DIAGNOSTIC_SOURCE } from '../runtime/lsp/shared';

const SEVERITY: Record<Severity, DiagnosticSeverity> = {
  error: DiagnosticSeverity.Error,
  warning: DiagnosticSeverity.Warning,
  information: DiagnosticSeverity.Information,
  hint: DiagnosticSeverity.Hint,
};

export function toLspDiagnostic(d: HookDiagnostic): Diagnostic {
  const out: Diagnostic = {
    range: d.range,
    severity: SEVERITY[d.severity],
    code: d.code,
    // The rule's page on the web, for any LSP client; the VS Code client shows the copy it ships.
    codeDescription: { href: d.docsUrl ?? ruleDocsUrl(d.code) },
    source: DIAGNOSTIC_SOURCE,
    message: d.message,
  };
  if (d.related?.length) {
    out.relatedInformation = d.related.map((r) => ({
      location: { uri: fileUri(r.file), range: r.range },
      message: r.message,
    }));
  }
  const tags = (d.tags ?? []).map((t) =>
    t === 'unnecessary' ? DiagnosticTag.Unnecessary : DiagnosticTag.Deprecated,
  );
  if (tags.length) out.tags = tags;
  return out;
}

/**
 * Whether two lists publish the same diagnostics (their fixes aside: the client never sees them).
 * Field by field, stopping at the first difference: an agent's thousands of diagnostics are
 * compared on every sibling refresh.
 */
export function samePublished(a: readonly HookDiagnostic[], b: readonly HookDiagnostic[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) {
    const x = a[i]!;
    const y = b[i]!;
    if (x.code !== y.code || x.severity !== y.severity || x.message !== y.message || x.file !== y.file)
      return false;
    if (!sameRange(x.range, y.range) || x.docsUrl !== y.docsUrl) return false;
    if ((x.tags ?? []).join() !== (y.tags ?? []).join()) return false;
    const xr = x.related ?? [];
    const yr = y.related ?? [];
    if (xr.length !== yr.length) return false;
    for (let j = 0; j < xr.length; j++)
      if (
        xr[j]!.file !== yr[j]!.file ||
        xr[j]!.message !== yr[j]!.message ||
        !sameRange(xr[j]!.range, yr[j]!.range)
      )
        return false;
  }
  return true;
}

function sameRange(a: HookDiagnostic['range'], b: HookDiagnostic['range']): boolean {
  return (
    a.start.line === b.start.line &&
    a.start.character === b.start.character &&
    a.end.line === b.end.line &&
    a.end.character === b.end.character
  );
}

export function fileUri(path: string): string {
  return pathToFileURL(path).href;
}

/** The file path of a file:// URI; undefined for other schemes (untitled buffers). */
export function uriPath(uri: string): string | undefined {
  try {
    return uri.startsWith('file:') ? fileURLToPath(uri) : undefined;
  } catch {
    return undefined;
  }
}
