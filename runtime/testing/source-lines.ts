// Lines of keys in a scenario or payload file, so that a failed expectation points at its line.
// JSON is read with the YAML parser too (YAML 1.2 is a superset of JSON), which keeps ranges.
import { isMap, isPair, isScalar, isSeq, LineCounter, parseDocument, type Node } from 'yaml';

export type KeyPath = readonly (string | number)[];

/** The key of a result or a planned expectation: the same path gives the same key. */
export const pathKey = (p: KeyPath) => p.join('/');

export interface SourceLines {
  /** 1-based line of the key (or list item) at `path`; the nearest existing parent's otherwise. */
  lineOf(path: KeyPath): number;
}

/** Parses on the first question: a case that asks nothing costs nothing. */
export function sourceLines(text: string): SourceLines {
  let parsed: { counter: LineCounter; doc: ReturnType<typeof parseDocument> } | undefined;
  return {
    lineOf(path) {
      if (!parsed) {
        const counter = new LineCounter();
        parsed = { counter, doc: parseDocument(text, { lineCounter: counter }) };
      }
      const { counter, doc } = parsed;
      const lineAt = (offset: number | undefined) =>
        offset === undefined ? 1 : counter.linePos(offset).line;
      let node: unknown = doc.contents;
      let line = 1;
      for (const seg of path) {
        if (isMap(node)) {
          const pair = node.items.find((p) => isPair(p) && isScalar(p.key) && p.key.value === seg);
          if (!pair) break;
          line = lineAt((pair.key as Node).range?.[0]);
          node = pair.value;
        } else if (isSeq(node) && typeof seg === 'number') {
          const item = node.items[seg] as Node | undefined;
          if (!item) break;
          line = lineAt(item.range?.[0]);
          node = item;
        } else break;
      }
      return line;
    },
  };
}
