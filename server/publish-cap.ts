// No flood: what one file publishes is capped per diagnostic code, plus one diagnostic per
// capped code saying how many more there are and that `hooksmith check` lists them all
// (hooksmith.maxDiagnosticsPerCode; the CLI has no cap). Ten generated files of 4,000
// diagnostics each were 3 MB of JSON apiece and kept the first diagnostics from the client for
// 30 s and more.
//
// What mature tools do, and where this follows them:
// - VS Code itself keeps at most 1,000 markers per file and adds an information marker "Not
//   showing N further errors and warnings" (src/vs/workbench/api/common/extHostDiagnostics.ts,
//   `_maxDiagnosticsPerFile`; by design for performance: microsoft/vscode#9826, #27723). By then
//   the server has serialised, sent and the client parsed every one of them: the cap belongs in
//   the server, before the wire.
// - clangd inherits clang's error limit (`-ferror-limit`, 19 by default in the driver), after
//   which clang emits one "too many errors emitted, stopping now": a bound and a summary.
// - Sorbet's server bounds what it reports (`--lsp-max-errors-reported`, sorbet/sorbet#4239),
//   and ycmd adds one "Maximum number of diagnostics exceeded." diagnostic
//   (ycm-core/ycmd#1051). Pyright publishes a file's diagnostics whole; we found no bound there.
// Per code rather than per file: a flood is one rule firing on every repeat of one mistake, and
// a cap per code keeps every other kind of finding in the file visible.
import type { HookDiagnostic } from '../runtime/rules/diagnostics';

/** At most `max` diagnostics of each code (in their order); a capped code's summary after its last shown. */
export function capPerCode(diagnostics: readonly HookDiagnostic[], max: number): HookDiagnostic[] {
  if (max <= 0 || diagnostics.length <= max) return [...diagnostics];
  const counts = new Map<string, number>();
  for (const d of diagnostics) counts.set(d.code, (counts.get(d.code) ?? 0) + 1);
  if (![...counts.values()].some((n) => n > max)) return [...diagnostics];
  const shown = new Map<string, number>();
  const out: HookDiagnostic[] = [];
  for (const d of diagnostics) {
    const n = (shown.get(d.code) ?? 0) + 1;
    shown.set(d.code, n);
    if (n <= max) out.push(d);
    if (n === max && counts.get(d.code)! > max) out.push(summary(d, counts.get(d.code)! - max, max));
  }
  return out;
}

/** The one diagnostic standing for `hidden` more of `last`'s code, at the last one shown. */
function summary(last: HookDiagnostic, hidden: number, max: number): HookDiagnostic {
  const more = hidden.toLocaleString('en-US');
  return {
    code: last.code,
    severity: 'information',
    message: `${more} more \`${last.code}\` diagnostic${hidden === 1 ? '' : 's'} in this file not shown (hooksmith.maxDiagnosticsPerCode is ${max}): \`hooksmith check\` lists them all.`,
    file: last.file,
    range: last.range,
    ...(last.docsUrl ? { docsUrl: last.docsUrl } : {}),
  };
}
