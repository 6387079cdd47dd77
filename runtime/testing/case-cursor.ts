// Where the cursor is in a scenario or payload-case file being typed: at a key of the mapping at
// some path, or at the value of a key. Read from the text before the cursor only, since a file
// being typed rarely parses: YAML by indentation, JSON by a small scanner.
export type CasePath = (string | number)[];

export interface CaseCursor {
  kind: 'key' | 'value';
  /** kind key: the mapping's path; kind value: the key's path (its last segment is the key). */
  path: CasePath;
  /** Offset where the word being typed starts (after an opening quote). */
  start: number;
  /** JSON: the cursor is inside quotes (the edit inserts the bare word). */
  quoted: boolean;
}

export function caseCursor(text: string, offset: number, json: boolean): CaseCursor | undefined {
  return json ? jsonCursor(text, offset) : yamlCursor(text, offset);
}

interface LineShape {
  /** Columns of the `- ` list markers that open the line. */
  dashes: number[];
  /** Column of the content after them. */
  col: number;
  key?: string;
  /** The text after `key:` (or the whole content when no key). */
  value: string;
}

function shape(line: string): LineShape | undefined {
  const indent = /^\s*/.exec(line)![0].length;
  if (indent === line.length || line[indent] === '#') return undefined;
  const dashes: number[] = [];
  let col = indent;
  for (let m; (m = /^-(\s+|$)/.exec(line.slice(col))); col += m[0].length) dashes.push(col);
  const rest = line.slice(col);
  const k = /^(["']?)([^"'\s:#][^:#]*?)\1\s*:(?=\s|$)/.exec(rest);
  return { dashes, col, key: k?.[2], value: (k ? rest.slice(k[0].length) : rest).trim() };
}

function yamlCursor(text: string, offset: number): CaseCursor | undefined {
  const lineStart = text.lastIndexOf('\n', offset - 1) + 1;
  const prefix = text.slice(lineStart, offset);
  const here = shape(prefix + 'x') ?? { dashes: [], col: prefix.length, value: '' };
  const lines = text.slice(0, lineStart).split('\n');
  const keyTyped = /^\s*(?:-\s+)*([\w$-]*)$/.exec(prefix);
  if (keyTyped) {
    return {
      kind: 'key',
      path: yamlOwner(lines, here.col, here.dashes),
      start: offset - keyTyped[1]!.length,
      quoted: false,
    };
  }
  const flow = flowStart(prefix);
  if (flow >= 0) {
    const head = /^\s*(?:-\s+)*(["']?)([^"'\s:#][^:#]*?)\1\s*:\s*$/.exec(prefix.slice(0, flow));
    const inner = head && jsonCursor(text, offset, lineStart + flow);
    if (!head || !inner) return undefined;
    return { ...inner, path: [...yamlOwner(lines, here.col, here.dashes), head[2]!, ...inner.path] };
  }
  const valueTyped = /^\s*(?:-\s+)*(["']?)([^"'\s:#][^:#]*?)\1\s*:\s+(["']?)([^\s"']*)$/.exec(prefix);
  if (!valueTyped) return undefined;
  return {
    kind: 'value',
    path: [...yamlOwner(lines, here.col, here.dashes), valueTyped[2]!],
    start: offset - valueTyped[4]!.length,
    quoted: false,
  };
}

/** Where the flow collection (`{` or `[`) still open at the end of `line` starts, or -1. */
function flowStart(line: string): number {
  const open: number[] = [];
  let quote = '';
  for (let i = 0; i < line.length; i++) {
    const ch = line[i]!;
    if (quote) quote = ch === quote ? '' : quote;
    else if (ch === '"' || ch === "'") quote = ch;
    else if (ch === '#' && (i === 0 || /\s/.test(line[i - 1]!))) break;
    else if (ch === '{' || ch === '[') open.push(i);
    else if (ch === '}' || ch === ']') open.pop();
  }
  return open.length ? open[0]! : -1;
}

/** The path of the mapping a key at column `col` belongs to, from the lines above it. */
function yamlOwner(lines: string[], col: number, dashes: number[]): CasePath {
  const path: CasePath = [];
  // A key after `- ` markers sits in list items: one level per marker.
  let need = col;
  let item = false;
  const enterItems = (d: number[]) => {
    if (!d.length) return;
    for (let i = 0; i < d.length; i++) path.unshift(0);
    need = d[0]!;
    item = true;
  };
  enterItems(dashes);
  for (let j = lines.length - 1; j >= 0 && need > 0; j--) {
    const s = shape(lines[j]!);
    if (!s) continue;
    const owner =
      s.key !== undefined && s.value === '' && (s.col < need || (item && s.col === need && !s.dashes.length));
    if (owner) {
      path.unshift(s.key!);
      need = s.col;
      item = false;
      enterItems(s.dashes);
    } else if (s.col === need && s.dashes.length && !item) {
      // A sibling key that opened its list item on its line.
      enterItems(s.dashes);
    } else if (s.col < need && !s.dashes.some((d) => d >= need)) {
      break; // less indented and no owner: not a place we understand
    }
  }
  return path;
}

interface Frame {
  kind: 'obj' | 'arr';
  key?: string;
  index: number;
  /** obj: a key or its value is next; arr: a value is next. */
  expect: 'key' | 'colon' | 'value' | 'comma';
}

/**
 * JSON, or a YAML flow collection (`{ point: tool_call }`) from `from`: bare words count as keys
 * and values as quoted ones do.
 */
function jsonCursor(text: string, offset: number, from = 0): CaseCursor | undefined {
  const stack: Frame[] = [];
  const pathOf = (upTo: number): CasePath =>
    stack.slice(0, upTo).map((f) => (f.kind === 'obj' ? (f.key ?? '') : f.index));
  for (let i = from; i < offset; i++) {
    const ch = text[i]!;
    const top = stack[stack.length - 1];
    if (/[\w$]/.test(ch) && top && (top.expect === 'key' || top.expect === 'value')) {
      // A key ends at `:`; a value may hold one (`hooks.py::guard_orders`).
      const stop = top.expect === 'key' ? /[\s,:{}[\]"']/ : /[\s,{}[\]"']/;
      let j = i;
      while (j < text.length && !stop.test(text[j]!)) j++;
      if (j >= offset) {
        const path = top.expect === 'key' ? pathOf(stack.length - 1) : pathOf(stack.length);
        return { kind: top.expect, path, start: i, quoted: false };
      }
      if (top.kind === 'obj' && top.expect === 'key') {
        top.key = text.slice(i, j);
        top.expect = 'colon';
      } else top.expect = 'comma';
      i = j - 1;
    } else if (ch === '"' || ch === "'") {
      let j = i + 1;
      while (j < text.length && text[j] !== ch && text[j] !== '\n') j += text[j] === '\\' ? 2 : 1;
      if (j >= offset) {
        // The cursor is inside this string.
        if (top?.kind === 'obj' && top.expect === 'key')
          return { kind: 'key', path: pathOf(stack.length - 1), start: i + 1, quoted: true };
        if (top?.kind === 'obj' && top.expect === 'value')
          return { kind: 'value', path: pathOf(stack.length), start: i + 1, quoted: true };
        if (top?.kind === 'arr')
          return { kind: 'value', path: pathOf(stack.length), start: i + 1, quoted: true };
        return undefined;
      }
      if (top?.kind === 'obj' && top.expect === 'key') {
        top.key = text.slice(i + 1, j);
        top.expect = 'colon';
      } else if (top) top.expect = 'comma';
      i = j;
    } else if (ch === '{' || ch === '[') {
      if (top) top.expect = 'comma';
      stack.push({ kind: ch === '{' ? 'obj' : 'arr', index: 0, expect: ch === '{' ? 'key' : 'value' });
    } else if (ch === '}' || ch === ']') stack.pop();
    else if (ch === ':' && top?.kind === 'obj') top.expect = 'value';
    else if (ch === ',' && top) {
      top.expect = top.kind === 'obj' ? 'key' : 'value';
      if (top.kind === 'arr') top.index++;
    } else if (/\S/.test(ch) && top && top.expect === 'value') top.expect = 'comma';
  }
  const top = stack[stack.length - 1];
  if (top?.kind === 'obj' && top.expect === 'key')
    return { kind: 'key', path: pathOf(stack.length - 1), start: offset, quoted: false };
  if (top?.kind === 'obj' && top.expect === 'value')
    return { kind: 'value', path: pathOf(stack.length), start: offset, quoted: false };
  return undefined;
}
