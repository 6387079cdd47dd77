// Which Hooksmith diagnostics belong to a hook in the explorer: those from its first decorator
// line up to the next hook's, in its file. The explorer marks a hook with their worst severity,
// the same one the editor shows (a duplicate configured as an error is an error here too).
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { HookEntry } from '../../runtime/lsp/shared';

function linesOf(file: string): readonly string[] {
  const open = vscode.workspace.textDocuments.find((d) => d.uri.scheme === 'file' && d.uri.fsPath === file);
  if (open) return open.getText().split(/\r?\n/);
  try {
    return fs.readFileSync(file, 'utf8').split(/\r?\n/);
  } catch {
    return [];
  }
}

/** The line of the first decorator above `defLine` (or `defLine`). */
function decoratorStart(lines: readonly string[], defLine: number): number {
  let line = defLine;
  while (line > 0 && (lines[line - 1] ?? '').trimStart().startsWith('@')) line--;
  return line;
}

/** Hooksmith diagnostics of each hook of `hooks` (all of one file), worst first. */
export function problemsByHook(
  file: string,
  hooks: readonly HookEntry[],
): Map<HookEntry, vscode.Diagnostic[]> {
  const out = new Map<HookEntry, vscode.Diagnostic[]>();
  const diags = vscode.languages
    .getDiagnostics(vscode.Uri.file(file))
    .filter((d) => d.source === 'hooksmith' && d.severity <= vscode.DiagnosticSeverity.Information);
  if (!diags.length) return out;
  const lines = linesOf(file);
  const starts = [...hooks]
    .map((h) => ({ h, start: decoratorStart(lines, h.range.start.line) }))
    .sort((a, b) => a.start - b.start);
  starts.forEach(({ h, start }, i) => {
    const end = starts[i + 1]?.start ?? Number.MAX_SAFE_INTEGER;
    const mine = diags
      .filter((d) => d.range.start.line >= start && d.range.start.line < end)
      .sort((a, b) => a.severity - b.severity);
    if (mine.length) out.set(h, mine);
  });
  return out;
}

export function sameFile(a: string, b: string): boolean {
  return path.resolve(a) === path.resolve(b);
}

const ICONS: Partial<Record<vscode.DiagnosticSeverity, [string, string]>> = {
  [vscode.DiagnosticSeverity.Error]: ['error', 'list.errorForeground'],
  [vscode.DiagnosticSeverity.Warning]: ['warning', 'list.warningForeground'],
  [vscode.DiagnosticSeverity.Information]: ['info', 'editorInfo.foreground'],
};

/** The icon of the worst problem, or undefined when there is none. */
export function problemIcon(
  problems: readonly vscode.Diagnostic[] | undefined,
): vscode.ThemeIcon | undefined {
  const worst = problems?.[0];
  const icon = worst && ICONS[worst.severity];
  return icon ? new vscode.ThemeIcon(icon[0], new vscode.ThemeColor(icon[1])) : undefined;
}
