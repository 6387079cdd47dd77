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
