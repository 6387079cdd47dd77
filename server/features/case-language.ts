// Completion, hover and document symbols in scenario and payload-case files, from the server so
// that every editor has them (#30 item 9): keys from the file's JSON Schema, point names from the
// catalogue, hook names from the agent, tool names from the scenario's `tools`, and the
// `scenario` / `turns` starters at the top of an empty scenario.
import { isMap, isPair, isScalar, isSeq, LineCounter, parseDocument, type Node } from 'yaml';
import {
  CompletionItemKind,
  InsertTextFormat,
  MarkupKind,
  SymbolKind,
  type CompletionItem,
  type DocumentSymbol,
  type Hover,
  type Position,
  type Range,
} from 'vscode-languageserver';
import { CAYU_PHASE_IDS, findCayuPhase, findPoint, POINT_IDS } from '../../runtime/catalogue';
import { SCENARIO_SNIPPETS } from '../../runtime/scaffold/new-scenario';
import { caseCursor, type CasePath } from '../../runtime/testing/case-cursor';
import { caseSchema, describeAt, keysAt, valuesAt } from '../../runtime/testing/case-schema';
import type { CaseView } from '../case-files';

const isJson = (file: string) => file.endsWith('.json');
const HOOK_KEYS = new Set(['hook', 'first', 'then']);

/** `starters`: offer the `scenario` / `turns` starters (Hooksmith's VS Code client has its own). */
export function caseCompletions(view: CaseView, position: Position, starters: boolean): CompletionItem[] {
  const text = view.doc.getText();
  const json = isJson(view.file);
  const cur = caseCursor(text, view.doc.offsetAt(position), json);
  if (!cur) return [];
  const range: Range = { start: view.doc.positionAt(cur.start), end: position };
  const schema = caseSchema(view.file);
  if (cur.kind === 'key') {
    const keys = keysAt(schema, cur.path).map((k): CompletionItem => ({
      label: k.name,
      kind: CompletionItemKind.Property,
      documentation: k.description && { kind: MarkupKind.Markdown, value: k.description },
      textEdit: { range, newText: !json ? `${k.name}: ` : cur.quoted ? k.name : `"${k.name}": ` },
    }));
    const starterItems =
      starters &&
      !json &&
      cur.path.length === 0 &&
      /\.scenario\.ya?ml$/.test(view.file) &&
      !text.trim().includes('\n')
        ? SCENARIO_SNIPPETS.map((s): CompletionItem => ({
            label: s.prefix,
            kind: CompletionItemKind.Snippet,
            detail: s.description,
            insertTextFormat: InsertTextFormat.Snippet,
            textEdit: { range, newText: s.body },
          }))
        : [];
    return [...starterItems, ...keys];
  }
  return valueNames(view, cur.path, text).map(({ name, kind, detail }) => ({
    label: name,
    kind,
    detail,
    textEdit: {
      range,
      newText: json && !cur.quoted && kind !== CompletionItemKind.Keyword ? `"${name}"` : name,
    },
  }));
}

interface Named {
  name: string;
  kind: CompletionItemKind;
  detail?: string;
}

/** The names the value at `path` can be: the schema's, else points, hooks or tools by the key. */
function valueNames(view: CaseView, path: CasePath, text: string): Named[] {
  const key = path[path.length - 1];
  const listed = valuesAt(caseSchema(view.file), path).map((name) => ({
    name,
    kind: name === 'true' || name === 'false' ? CompletionItemKind.Keyword : CompletionItemKind.EnumMember,
  }));
  if (listed.length) return listed;
  if (key === 'point')
    return [...POINT_IDS, ...CAYU_PHASE_IDS].map((name) => ({
      name,
      kind: CompletionItemKind.Event,
      detail: findPoint(name)?.title ?? 'Cayu phase',
    }));
  if (typeof key === 'string' && HOOK_KEYS.has(key))
    return view.hooks.map((h) => ({ name: h.label, kind: CompletionItemKind.Function, detail: h.point }));
  if (key === 'tool_name' || key === 'tool')
    return toolsOf(text).map((name) => ({ name, kind: CompletionItemKind.Value }));
  return [];
}

/** The tools a scenario declares (`tools:` at the top and in each turn). */
function toolsOf(text: string): string[] {
  try {
    const data = parseDocument(text).toJS() as {
      tools?: Record<string, unknown>;
      turns?: { tools?: Record<string, unknown> }[];
    } | null;
    const all = [data?.tools, ...(Array.isArray(data?.turns) ? data.turns.map((t) => t?.tools) : [])];
    return [...new Set(all.flatMap((t) => (t && typeof t === 'object' ? Object.keys(t) : [])))];
  } catch {
    return [];
  }
}

export function caseHover(view: CaseView, position: Position): Hover | null {
  const text = view.doc.getText();
  const offset = view.doc.offsetAt(position);
  const isWord = (ch: string | undefined) => ch !== undefined && /[\w$-]/.test(ch);
  let start = offset;
  let end = offset;
  while (isWord(text[start - 1])) start--;
  while (isWord(text[end])) end++;
  if (start === end) return null;
  const word = text.slice(start, end);
  const cur = caseCursor(text, end, isJson(view.file));
  if (!cur) return null;
  const schema = caseSchema(view.file);
  let value: string | undefined;
  if (cur.kind === 'key') {
    const doc = describeAt(schema, [...cur.path, word]);
    if (doc || keysAt(schema, cur.path).some((k) => k.name === word))
      value = `**${word}**${doc ? ` — ${doc}` : ''}`;
  } else {
    const point = findPoint(word);
    const phase = findCayuPhase(word);
    const key = String(cur.path[cur.path.length - 1]);
    if (key === 'point' && point) value = `**${point.id}** — ${point.title}\n\n${point.when}`;
    else if (key === 'point' && phase) value = `**${phase.id}** — Cayu phase\n\n${phase.doc}`;
    else {
      const doc = describeAt(schema, cur.path);
      if (doc) value = `**${key}** — ${doc}`;
    }
  }
  if (!value) return null;
  return {
    contents: { kind: MarkupKind.Markdown, value },
    range: { start: view.doc.positionAt(start), end: view.doc.positionAt(end) },
  };
}

/** The file's keys as an outline; a list item is named by its `name` (else `user`, else its index). */
export function caseSymbols(view: CaseView): DocumentSymbol[] {
  const counter = new LineCounter();
  const doc = parseDocument(view.doc.getText(), { lineCounter: counter });
  const pos = (offset: number): Position => {
    const { line, col } = counter.linePos(offset);
    return { line: line - 1, character: col - 1 };
  };
  const rangeOf = (n: Node | null | undefined, fallback: Range): Range =>
    n?.range ? { start: pos(n.range[0]), end: pos(n.range[1]) } : fallback;
  const children = (node: unknown): DocumentSymbol[] => {
    if (isMap(node))
      return node.items.flatMap((pair) => {
        if (!isPair(pair) || !isScalar(pair.key) || !pair.key.range) return [];
        const keyRange = rangeOf(pair.key, { start: pos(0), end: pos(0) });
        const valueRange = rangeOf(pair.value as Node | null, keyRange);
        return [
          {
            name: String(pair.key.value),
            detail: isScalar(pair.value) ? String(pair.value.value) : undefined,
            kind: isSeq(pair.value)
              ? SymbolKind.Array
              : isMap(pair.value)
                ? SymbolKind.Object
                : SymbolKind.Property,
            range: { start: keyRange.start, end: valueRange.end },
            selectionRange: keyRange,
            children: children(pair.value),
          },
        ];
      });
    if (isSeq(node))
      return node.items.flatMap((item, i) => {
        const r = rangeOf(item as Node, { start: pos(0), end: pos(0) });
        const named = isMap(item) ? (item.get('name') ?? item.get('user')) : undefined;
        return [
          {
            name: typeof named === 'string' ? named : `[${i}]`,
            kind: SymbolKind.Object,
            range: r,
            selectionRange: r,
            children: children(item),
          },
        ];
      });
    return [];
  };
  return children(doc.contents);
}
