// Completion on half-typed code: the text before the cursor decides the context, the model
// (built from a tree that may hold error nodes) supplies the types. Contexts, in order:
// `@` decorators (with the import added), `"model_settings": {` keys, `model_copy(update={`
// keys (mutable fields only), Cayu decision keywords and `action="…"` literals, and
// `name.` fields of a payload parameter or a Cayu context.
import type { InstalledModule } from '../../runtime/cpython/environment';
import {
  CompletionItemKind,
  InsertTextFormat,
  MarkupKind,
  type CompletionItem,
  type CompletionParams,
  type Position,
} from 'vscode-languageserver';
import {
  CAYU_CONTEXT_PROPERTY_DOCS,
  HOOK_DECORATORS,
  MODEL_SETTINGS,
  allFields,
  findCayuContext,
  findCayuDecision,
  CAYU_TOOL_RESULT_FIELDS,
  mutableFieldNames,
  type CayuDecision,
} from '../../runtime/catalogue';
import type { HookModule } from '../../runtime/python/model';
import { contextParameter, phaseMethods } from '../../runtime/python/hooks';
import { spellMantleName } from '../../runtime/rules';
import type { Analyser } from '../analyser';
import { enclosingFunction, hookPayloadType, payloadTypeOf } from './context';
import { decoratorHover, payloadHover } from './hover-text';
import { scaffoldCompletions, takenModifyPoints } from './scaffold-completion';
import { hookPropertyCompletions } from './cayu-hook-members';
import { pointWired, type WiringSource } from '../../runtime/catalogue/wiring';

/** How far back the cursor context is read. */
const LOOKBACK = 2000;

interface Ctx {
  model: HookModule;
  text: string;
  pos: Position;
  /** Text before the cursor (bounded). */
  before: string;
  /** The current line up to the cursor. */
  line: string;
  /** The character right after the cursor (an auto-closed quote, say). */
  next: string;
}

/** `wiring`: the installed engine and the setting, as the not-wired rule is told (wired points first). */
export function completions(
  analyser: Analyser,
  p: CompletionParams,
  wiring?: WiringSource,
): CompletionItem[] {
  const cur = analyser.current(p.textDocument.uri);
  if (!cur) return [];
  const doc = cur.state.buffer!.document;
  const offset = doc.offsetAt(p.position);
  const text = cur.state.text;
  const before = text.slice(Math.max(0, offset - LOOKBACK), offset);
  const line = before.slice(before.lastIndexOf('\n') + 1);
  const ctx: Ctx = { model: cur.state.model, text, pos: p.position, before, line, next: text.charAt(offset) };
  return (
    decorators(ctx, analyser.installedMantle?.(), wiring) ??
    modelSettingsKeys(ctx) ??
    modelCopyKeys(ctx) ??
    cayuDecision(ctx) ??
    fieldAccess(ctx) ??
    hookPropertyCompletions(ctx.model, ctx.text, ctx.line, ctx.pos) ??
    scaffoldCompletions(
      ctx.model,
      ctx.text,
      ctx.line,
      ctx.pos,
      wiring,
      takenModifyPoints(analyser.siblings(cur.state).map((s) => (s === cur.state ? ctx.model : s.model))),
    ) ??
    []
  );
}

function replaceWord(ctx: Ctx, word: string) {
  return { start: { line: ctx.pos.line, character: ctx.pos.character - word.length }, end: ctx.pos };
}

/** The decorators rasa.mantle.hooks exports: the installed module's when it was read, else the catalogue's. */
function decorators(
  ctx: Ctx,
  installed: InstalledModule | undefined,
  wiring: WiringSource | undefined,
): CompletionItem[] | undefined {
  const m = /^\s*@([A-Za-z_][\w.]*)?$/.exec(ctx.line);
  if (!m) return undefined;
  const typed = m[1] ?? '';
  const known = installed
    ? HOOK_DECORATORS.filter((d) => installed.decorators.includes(d.name))
    : HOOK_DECORATORS;
  // Points the engine invokes first: `@mod` offers modify_model_request before the not-wired
  // modify_incoming_message (the sort is stable, so catalogue order holds within each group).
  const wired = (d: (typeof known)[number]) => pointWired(d.point, wiring).wired;
  const ordered = [...known].sort((a, b) => Number(wired(b)) - Number(wired(a)));
  const extra = (installed?.decorators ?? []).filter((n) => !HOOK_DECORATORS.some((d) => d.name === n));
  const more = extra.map((name, i): CompletionItem => {
    const spelling = spellMantleName(ctx.model, ctx.text, name);
    return {
      label: name,
      kind: CompletionItemKind.Function,
      detail: 'rasa.mantle.hooks (installed; not in the bundled catalogue)',
      sortText: String(known.length + i).padStart(2, '0'),
      filterText: spelling.text,
      insertTextFormat: InsertTextFormat.Snippet,
      textEdit: { range: replaceWord(ctx, typed), newText: `${spelling.text}($0)` },
      additionalTextEdits: spelling.importEdits,
    };
  });
  return [
    ...ordered.map((d, i) => {
      const spelling = spellMantleName(ctx.model, ctx.text, d.name);
      return {
        label: d.name,
        kind: CompletionItemKind.Function,
        detail: `${d.point.id} · ${d.lane}${wired(d) ? '' : ' · not wired'}`,
        documentation: { kind: MarkupKind.Markdown, value: decoratorHover(d, undefined, wiring) },
        sortText: String(i).padStart(2, '0'),
        filterText: spelling.text,
        insertTextFormat: InsertTextFormat.Snippet,
        textEdit: { range: replaceWord(ctx, typed), newText: `${spelling.text}($0)` },
        additionalTextEdits: spelling.importEdits,
      };
    }),
    ...more,
  ];
}

/** The key being typed in a dict literal: after `{` or `,`, optionally opened with a quote. */
function dictKey(tail: string): { quote: string; word: string } | undefined {
  const m = /(?:\{|,)\s*(["']?)(\w*)$/.exec(tail);
  return m ? { quote: m[1] ?? '', word: m[2] ?? '' } : undefined;
}

function keyItems(
  ctx: Ctx,
  tail: string,
  keys: { name: string; detail: string; doc: string }[],
): CompletionItem[] | undefined {
  const k = dictKey(tail);
  if (!k) return undefined;
  const range = replaceWord(ctx, k.quote + k.word);
  // An auto-closed quote after the cursor is replaced too.
  if (k.quote && ctx.next === k.quote) range.end = { line: ctx.pos.line, character: ctx.pos.character + 1 };
  return keys.map((key, i) => ({
    label: `"${key.name}"`,
    kind: CompletionItemKind.Property,
    detail: key.detail,
    documentation: key.doc,
    sortText: String(i).padStart(2, '0'),
    filterText: `${k.quote}${key.name}`,
    textEdit: { range, newText: `"${key.name}": ` },
  }));
}

function modelSettingsKeys(ctx: Ctx): CompletionItem[] | undefined {
  const m = /(?:["']model_settings["']\s*:|model_settings\s*=)\s*(\{[^{}]*)$/.exec(ctx.before);
  if (!m) return undefined;
  return keyItems(
    ctx,
    m[1]!,
    MODEL_SETTINGS.map((s) => ({ name: s.key, detail: s.valueType, doc: s.doc })),
  );
}

function modelCopyKeys(ctx: Ctx): CompletionItem[] | undefined {
  const m = /([A-Za-z_]\w*)\.model_copy\(\s*(?:update\s*=\s*)?(\{[^{}]*)$/.exec(ctx.before);
  if (!m) return undefined;
  const fn = enclosingFunction(ctx.model, ctx.pos, true);
  if (!fn) return undefined;
  const type = payloadTypeOf(ctx.model, fn, m[1]!) ?? hookPayloadType(ctx.model, fn);
  if (!type) return undefined;
  const mutable = new Set(mutableFieldNames(type));
  const keys = type.fields
    .filter((f) => mutable.has(f.name))
    .map((f) => ({ name: f.name, detail: `${f.pythonType} · mutable`, doc: f.doc }));
  return keyItems(ctx, m[2]!, keys);
}

function cayuDecision(ctx: Ctx): CompletionItem[] | undefined {
  const m = /([A-Za-z_][\w.]*)\(([^()]*)$/.exec(ctx.before);
  if (!m) return undefined;
  const callee = m[1]!.slice(m[1]!.lastIndexOf('.') + 1);
  const args = m[2]!;
  if (callee === 'ToolResult')
    return keywordItems(
      ctx,
      args,
      Object.entries(CAYU_TOOL_RESULT_FIELDS).map(([k, v]) => ({ name: k, detail: v })),
    );
  const decision = findCayuDecision(callee);
  if (!decision) return undefined;
  const literal = /action\s*=\s*(["'])(\w*)$/.exec(args);
  if (literal) {
    return decision.actions.map((a, i) => ({
      label: a.action,
      kind: CompletionItemKind.EnumMember,
      detail: a.companion ? `requires ${a.companion}` : undefined,
      documentation: a.doc,
      sortText: String(i),
      textEdit: { range: replaceWord(ctx, literal[2]!), newText: a.action },
    }));
  }
  return keywordItems(ctx, args, decisionKeywords(decision, args));
}

/** `action=` first, then the chosen action's companion, then the other companion fields. */
function decisionKeywords(decision: CayuDecision, args: string): { name: string; detail: string }[] {
  const chosen = /action\s*=\s*["'](\w+)["']/.exec(args)?.[1];
  const companion = decision.actions.find((a) => a.action === chosen)?.companion;
  const out = [{ name: 'action', detail: decision.actions.map((a) => `"${a.action}"`).join(' | ') }];
  const fields = Object.entries(decision.fields).sort(
    ([a], [b]) => Number(b === companion) - Number(a === companion),
  );
  for (const [name, type] of fields) {
    if (chosen && companion && name !== companion) continue; // valid only with its own action
    out.push({ name, detail: type });
  }
  return out;
}

function keywordItems(
  ctx: Ctx,
  args: string,
  keys: { name: string; detail: string }[],
): CompletionItem[] | undefined {
  const k = /(?:^|,)\s*(\w*)$/.exec(args);
  if (!k) return undefined;
  const present = new Set([...args.matchAll(/(\w+)\s*=/g)].map((x) => x[1]));
  return keys
    .filter((key) => !present.has(key.name))
    .map((key, i) => ({
      label: `${key.name}=`,
      kind: CompletionItemKind.Field,
      detail: key.detail,
      sortText: String(i).padStart(2, '0'),
      filterText: key.name,
      textEdit: { range: replaceWord(ctx, k[1]!), newText: `${key.name}=` },
    }));
}

function fieldAccess(ctx: Ctx): CompletionItem[] | undefined {
  const m = /([A-Za-z_]\w*)\.(\w*)$/.exec(ctx.line);
  if (!m) return undefined;
  const [, name, word] = m as unknown as [string, string, string];
  const fn = enclosingFunction(ctx.model, ctx.pos, /^\s+/.test(ctx.line));
  if (!fn) return undefined;
  const type = payloadTypeOf(ctx.model, fn, name);
  if (type) {
    const fields = allFields(type).map((f, i) => ({
      label: f.name,
      kind: CompletionItemKind.Field,
      detail: `${f.pythonType} · ${f.mutability}`,
      documentation: { kind: MarkupKind.Markdown, value: payloadHover(type, f.name) },
      sortText: String(i).padStart(2, '0'),
      textEdit: { range: replaceWord(ctx, word), newText: f.name },
    }));
    const copy: CompletionItem = {
      label: 'model_copy',
      kind: CompletionItemKind.Method,
      detail: 'returns a copy with mutable fields updated',
      sortText: '90',
      insertTextFormat: InsertTextFormat.Snippet,
      textEdit: { range: replaceWord(ctx, word), newText: 'model_copy(update={$0})' },
    };
    return [...fields, copy];
  }
  const phase = phaseMethods(ctx.model).find((pm) => pm.method === fn);
  if (phase && contextParameter(fn)?.name === name) {
    const context = findCayuContext(phase.phase.context);
    if (!context) return undefined;
    return Object.entries(context.properties).map(([prop, t], i) => ({
      label: prop,
      kind: CompletionItemKind.Property,
      detail: `${t} · read-only`,
      documentation: CAYU_CONTEXT_PROPERTY_DOCS[prop],
      sortText: String(i).padStart(2, '0'),
      textEdit: { range: replaceWord(ctx, word), newText: prop },
    }));
  }
  return undefined;
}
