// The field-level diff of a hook's input and what the engine carries on with: changed, added,
// removed, plus identity fields the payload wall restored (the hook changed them, the engine
// put them back, so before and after agree yet the row is worth highlighting).
import { escapeHtml } from './html-kit';
import { parseJson, stringifyJson } from '../json/lossless-json';

export type DiffKind = 'same' | 'changed' | 'added' | 'removed' | 'restored';

export interface DiffRow {
  /** Dotted path with [i] for arrays: "arguments.size", "tool_calls[0].id"; "" for the root. */
  path: string;
  kind: DiffKind;
  before?: unknown;
  after?: unknown;
}

export interface PayloadDiff {
  rows: DiffRow[];
  changed: number;
  added: number;
  removed: number;
  restored: number;
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a) && Array.isArray(b))
    return a.length === b.length && a.every((x, i) => sameJson(x, b[i]));
  const ka = Object.keys(a as object);
  const kb = Object.keys(b as object);
  return (
    ka.length === kb.length &&
    ka.every(
      (k) =>
        Object.prototype.hasOwnProperty.call(b, k) &&
        sameJson((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]),
    )
  );
}

function join(base: string, key: string | number): string {
  return typeof key === 'number' ? `${base}[${key}]` : base ? `${base}.${key}` : key;
}

/** Identity fields named in the payload wall's notes ("identity field 'sender_id' restored …"). */
export function restoredFields(notes: readonly string[]): Set<string> {
  const out = new Set<string>();
  for (const n of notes) {
    const m = /identity field '([^']+)' restored/.exec(n);
    if (m) out.add(m[1]);
  }
  return out;
}

const MAX_DEPTH = 8;

function walk(
  before: unknown,
  after: unknown,
  path: string,
  depth: number,
  rows: DiffRow[],
  restored: Set<string>,
): void {
  if (restored.has(path)) {
    rows.push({ path, kind: 'restored', before, after });
    return;
  }
  const bothObjects = isPlainObject(before) && isPlainObject(after);
  const bothArrays = Array.isArray(before) && Array.isArray(after);
  if (depth < MAX_DEPTH && bothObjects) {
    const keys = [...Object.keys(before)];
    for (const k of Object.keys(after)) if (!keys.includes(k)) keys.push(k);
    for (const k of keys) {
      const inB = Object.prototype.hasOwnProperty.call(before, k);
      const inA = Object.prototype.hasOwnProperty.call(after, k);
      const p = join(path, k);
      if (inB && inA) walk(before[k], after[k], p, depth + 1, rows, restored);
      else if (inB) rows.push({ path: p, kind: restored.has(p) ? 'restored' : 'removed', before: before[k] });
      else rows.push({ path: p, kind: 'added', after: after[k] });
    }
    return;
  }
  if (depth < MAX_DEPTH && bothArrays && !sameJson(before, after)) {
    const n = Math.max(before.length, after.length);
    for (let i = 0; i < n; i++) {
      const p = join(path, i);
      if (i >= after.length) rows.push({ path: p, kind: 'removed', before: before[i] });
      else if (i >= before.length) rows.push({ path: p, kind: 'added', after: after[i] });
      else walk(before[i], after[i], p, depth + 1, rows, restored);
    }
    return;
  }
  // Tool result `value` is JSON text: diff what it encodes, field by field.
  if (depth < MAX_DEPTH && typeof before === 'string' && typeof after === 'string' && before !== after) {
    const b = parseJsonText(before);
    const a = parseJsonText(after);
    if (b !== undefined && a !== undefined) {
      walk(b, a, `${path}⟨json⟩`, depth + 1, rows, restored);
      return;
    }
  }
  rows.push({ path, kind: sameJson(before, after) ? 'same' : 'changed', before, after });
}

/** A string holding a JSON object or array, parsed; anything else undefined. */
function parseJsonText(text: string): unknown {
  const t = text.trim();
  if (!(t.startsWith('{') || t.startsWith('[')) || t.length > 200_000) return undefined;
  try {
    const v: unknown = parseJson(t);
    return typeof v === 'object' && v !== null ? v : undefined;
  } catch {
    return undefined;
  }
}

/** Diffs two JSON values field by field; `notes` are the run's notes (identity restorations). */
export function diffPayload(before: unknown, after: unknown, notes: readonly string[] = []): PayloadDiff {
  const rows: DiffRow[] = [];
  walk(before, after, '', 0, rows, restoredFields(notes));
  const count = (k: DiffKind): number => rows.filter((r) => r.kind === k).length;
  return {
    rows,
    changed: count('changed'),
    added: count('added'),
    removed: count('removed'),
    restored: count('restored'),
  };
}

export function diffSummary(d: PayloadDiff): string {
  const parts: string[] = [];
  if (d.changed) parts.push(`${d.changed} changed`);
  if (d.added) parts.push(`${d.added} added`);
  if (d.removed) parts.push(`${d.removed} removed`);
  if (d.restored) parts.push(`${d.restored} identity restored`);
  return parts.length ? parts.join(', ') : 'unchanged';
}

function cell(value: unknown, present: boolean): string {
  if (!present) return '<span class="note">—</span>';
  const text = typeof value === 'string' ? stringifyJson(value) : (stringifyJson(value) ?? String(value));
  const bounded = text.length > 2000 ? `${text.slice(0, 2000)}…` : text;
  return `<code>${escapeHtml(bounded)}</code>`;
}

const KIND_WORDS: Record<DiffKind, string> = {
  same: 'same',
  changed: 'changed',
  added: 'added',
  removed: 'removed',
  restored: 'identity restored by the payload wall',
};

/** The diff as a table; unchanged rows are hidden unless `showSame`. */
export function renderDiffTable(d: PayloadDiff, showSame = false, caption = 'Payload diff'): string {
  const rows = d.rows.filter((r) => showSame || r.kind !== 'same');
  if (!rows.length) return `<p class="note">Unchanged: the engine carries on with the input as it was.</p>`;
  const body = rows
    .map(
      (r) =>
        `<tr class="d-${r.kind}"><td class="k mono">${escapeHtml(r.path || '(payload)')}</td><td>${cell(r.before, r.kind !== 'added')}</td><td>${cell(r.after, r.kind !== 'removed')}</td><td class="kind">${escapeHtml(KIND_WORDS[r.kind])}</td></tr>`,
    )
    .join('');
  return `<table class="diff"><caption class="sr-only">${escapeHtml(caption)}</caption><thead><tr><th scope="col">Field</th><th scope="col">Before</th><th scope="col">After</th><th scope="col">Change</th></tr></thead><tbody>${body}</tbody></table>`;
}
