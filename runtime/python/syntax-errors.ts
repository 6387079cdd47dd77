// The first real syntax error in a tree. Tree-sitter's error recovery cascades, so only the
// earliest ERROR/MISSING node is reported, with CPython's wording where the shape is clear.
// CPython itself (runtime/cpython/syntax-checker.ts) confirms and refines this when python3 is available.
import type { SyntaxNode as Node } from './syntax-node';
import type { Range, SyntaxIssue } from './model';
import { positionOf, rangeOf } from './tree-utils';

const COMPOUND_KEYWORDS = new Set([
  'def',
  'class',
  'if',
  'elif',
  'else',
  'for',
  'while',
  'with',
  'try',
  'except',
  'finally',
  'match',
  'case',
]);
const OPENERS: Record<string, string> = { '(': ')', '[': ']', '{': '}' };

/** Earliest ERROR or MISSING node in document order (pre-order, descending only into erroneous subtrees). */
function firstErrorNode(root: Node): Node | undefined {
  const stack: Node[] = [root];
  while (stack.length) {
    const n = stack.pop() as Node;
    if (n.isMissing || n.type === 'ERROR') return n;
    const children = n.children;
    for (let i = children.length - 1; i >= 0; i--) {
      const c = children[i];
      if (c && (c.hasError || c.isMissing)) stack.push(c);
    }
  }
  return undefined;
}

function point(p: { line: number; character: number }): Range {
  return { start: { ...p }, end: { ...p } };
}

/** Leaves of `n` in order, iteratively; capped so a huge ERROR node stays cheap. */
function leaves(n: Node, cap = 2000): Node[] {
  const out: Node[] = [];
  const stack: Node[] = [n];
  while (stack.length && out.length < cap) {
    const c = stack.pop() as Node;
    const children = c.children;
    if (children.length === 0) {
      out.push(c);
      continue;
    }
    for (let i = children.length - 1; i >= 0; i--) {
      const k = children[i];
      if (k) stack.push(k);
    }
  }
  return out;
}

/** The LSP line holding UTF-16 offset `at` (without its line break). */
function lineAround(text: string, at: number): string {
  let start = at;
  while (start > 0 && text[start - 1] !== '\n' && text[start - 1] !== '\r') start--;
  let end = at;
  while (end < text.length && text[end] !== '\n' && text[end] !== '\r') end++;
  return text.slice(start, end);
}

export function firstSyntaxError(root: Node, text: string): SyntaxIssue | undefined {
  const n = firstErrorNode(root);
  if (!n) return undefined;
  const issue = (message: string, range: Range): SyntaxIssue => ({ message, range, source: 'tree-sitter' });

  if (n.isMissing) {
    const what = n.type;
    const message =
      /^[^\w]+$|^[a-z]+$/.test(what) && what !== 'identifier' ? `expected '${what}'` : 'invalid syntax';
    return issue(message, point(positionOf(n, 'start')));
  }

  const ls = leaves(n);
  // An unterminated string: a string start with no end inside the error.
  const starts = ls.filter((l) => l.type === 'string_start');
  const ends = ls.filter((l) => l.type === 'string_end').length;
  if (starts.length > ends) {
    const s = starts[ends] ?? starts[0];
    if (s) {
      const triple = /'''|"""/.test(s.text);
      const r = rangeOf(s);
      return issue(
        `unterminated ${triple ? 'triple-quoted ' : ''}string literal (detected at line ${r.start.line + 1})`,
        point(r.start),
      );
    }
  }
  // A compound statement header without its colon.
  const first = ls[0];
  if (first && COMPOUND_KEYWORDS.has(first.type)) {
    const line = positionOf(first, 'start').line;
    const code = lineAround(text, first.startIndex).replace(/#.*$/, '').trimEnd();
    if (!code.endsWith(':') && !/[([{\\,]$/.test(code))
      return issue("expected ':'", point({ line, character: code.length }));
  }
  // A bracket opened in the error and never closed.
  const open: Node[] = [];
  for (const l of ls) {
    if (OPENERS[l.type]) open.push(l);
    else if (open.length && l.type === OPENERS[open[open.length - 1]?.type ?? '']) open.pop();
  }
  const unclosed = open[0];
  // CPython's rule: an open bracket from an earlier line than the error is "never closed".
  const lastLeaf = ls[ls.length - 1];
  const errorLine = positionOf(lastLeaf ?? n, lastLeaf ? 'start' : 'end').line;
  if (unclosed && positionOf(unclosed, 'start').line < errorLine)
    return issue(`'${unclosed.type}' was never closed`, rangeOf(unclosed));
  const last = ls[ls.length - 1];
  const at =
    last && first && positionOf(last, 'start').line === positionOf(first, 'start').line ? last : first;
  return issue('invalid syntax', at ? rangeOf(at) : rangeOf(n));
}
