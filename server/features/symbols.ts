// Document symbols for hooks: Mantle hook functions (detail "point · lane · timeout") and
// Cayu RuntimeHook classes with their phase methods.
import { SymbolKind, type DocumentSymbol, type DocumentSymbolParams } from 'vscode-languageserver';
import { cayuHookClasses, mantleHooks } from '../../runtime/python/hooks';
import type { Analyser } from '../analyser';

export function documentSymbols(analyser: Analyser, p: DocumentSymbolParams): DocumentSymbol[] {
  const state = analyser.current(p.textDocument.uri)?.state ?? analyser.get(p.textDocument.uri);
  if (!state || state.engine === 'none') return [];
  const out: DocumentSymbol[] = [];
  for (const h of mantleHooks(state.model)) {
    out.push({
      name: h.fn.name,
      detail: `${h.point.id} · ${h.lane} · ${h.timeoutMs} ms`,
      kind: SymbolKind.Function,
      range: h.fn.range,
      selectionRange: h.fn.nameRange,
    });
  }
  for (const { cls, phases } of cayuHookClasses(state.model)) {
    const children = phases.map((m) => ({
      name: m.method.name,
      detail: `${m.phase.id} · ${m.phase.decision ?? 'None'}`,
      kind: SymbolKind.Method,
      range: m.method.range,
      selectionRange: m.method.nameRange,
    }));
    out.push({
      name: cls.name,
      detail: 'RuntimeHook',
      kind: SymbolKind.Class,
      range: cls.range,
      selectionRange: cls.nameRange,
      children,
    });
  }
  return out.sort((a, b) => a.range.start.line - b.range.start.line);
}
