// tool-result-value-is-text: a tool result's `value` used as a dict or list. The engine hands
// `modify_tool_result` / `on_tool_result` the result as serialized JSON text, so such code never
// sees the data: an isinstance guard is always false, `.get(` raises AttributeError.
import type { HookDiagnostic, TextEdit } from './diagnostics';
import { payloadParameter } from '../python/hooks';
import { checkHooks, cleanHooksBit, type CleanHooks } from './util/clean-hooks';
import type { HookModule, LiteralValue, Position, Range } from '../python/model';
import type { Rule, RuleContext } from './rule';
import { fix, q, reportMessage } from './util/diagnostic';
import { spellModuleName } from './util/mantle-import-fix';
import { offsetAt, positionAt } from '../python/text';
import { aliasesOf } from './util/aliases';

const CODE = 'tool-result-value-is-text';
const POINT = 'tool_result';
/** Methods of a dict (or list) that a str does not have, or that mean something else on one. */
const CONTAINER_METHODS = new Set(['get', 'items', 'keys', 'values', 'append', 'setdefault', 'pop']);
const STRING_KEY = /^\s*\[\s*[rRbBuUfF]{0,2}["']/;
const CONTAINER_TYPES = /^\(?\s*(dict|list|Mapping|MutableMapping|Sequence)\b/;

interface Use {
  /** The `<payload>.value` expression. */
  range: Range;
  /** How it is used, for the message. */
  how: string;
}

/** Hooks found clean on their own facts (util/clean-hooks.ts). */
const clean: CleanHooks = cleanHooksBit();

export const toolResultValueIsText: Rule = {
  code: CODE,
  engine: 'mantle',
  severity: 'warning',
  title: "A tool result's `value` used as a dict or list: it is JSON text",
  docs: {
    what: 'In a `modify_tool_result` or `on_tool_result` hook, the payload\'s `value` — or a local name bound only to it (`value = result.value`) — treated as a dict or list: `isinstance(payload.value, dict)` (or `list`, or a tuple of them), `payload.value["key"]`, `payload.value.get(…)`, `.items()`, `.keys()`, `.values()`, or `for x in payload.value`.',
    why: 'The engine passes the tool result as serialized JSON text. An `isinstance(…, dict)` guard is always false, so the code behind it silently never runs; `.get(…)` raises AttributeError (a crash: the engine keeps the original result); indexing or iterating walks the characters of the text.',
    spec: 'spec/mantle-hooks.md, `modify_tool_result`: `value` is the "result value persisted and replayed to the model"; DESIGN.md (facts from the public engines): "`modify_tool_result` receives `value` as serialized JSON text, not a dict".',
    fix: 'Parse it first: `data = json.loads(payload.value)`, and write back with `json.dumps(...)` in `payload.model_copy(update={"value": ...})`. The quick fix wraps the use in `json.loads(…)` and adds `import json` when the module lacks it.',
    example: {
      bad: `import logging

from rasa.mantle.hooks import ToolResultPayload, on_tool_result

logger = logging.getLogger(__name__)


@on_tool_result()
async def count_rows(result: ToolResultPayload) -> None:
    logger.info("%d rows", len(result.value["rows"]))
`,
      good: `import json
import logging

from rasa.mantle.hooks import ToolResultPayload, on_tool_result

logger = logging.getLogger(__name__)


@on_tool_result()
async def count_rows(result: ToolResultPayload) -> None:
    logger.info("%d rows", len(json.loads(result.value)["rows"]))
`,
    },
  },
  fixable: true,
  messages: {
    jsonText:
      '{{what}} is the tool result as JSON text, not a dict or list: {{how}}. Parse it with {{parse}} first.',
  },
  check(ctx) {
    const out: HookDiagnostic[] = [];
    // Every fact read is the hook's own: its point, its def's calls and its text.
    checkHooks(ctx.module, clean, (h) => {
      if (h.point.id !== POINT) return true;
      const param = payloadParameter(h.fn);
      if (!param) return true;
      const value = `${param.name}.value`;
      // `value = result.value; value.get(…)`: a name bound only to it is the same text.
      const names = [value, ...aliasesOf(h.fn.body, value).filter((a) => !a.includes('.'))];
      let found = 0;
      for (const name of names) {
        const uses = usesOf(ctx, h.fn.range, h.fn.body.calls, name);
        const what = name === value ? q(value) : `${q(name)} (bound to ${q(value)})`;
        for (const use of uses) {
          out.push(
            reportMessage(
              this,
              ctx,
              use.range,
              'jsonText',
              { what, how: use.how, parse: q('json.loads(' + name + ')') },
              { fixes: [parseFix(ctx.module, ctx.text, use.range, name)] },
            ),
          );
        }
        found += uses.length;
      }
      return found === 0;
    });
    return out;
  },
};

function usesOf(
  ctx: RuleContext,
  fnRange: Range,
  calls: HookModule['functions'][number]['body']['calls'],
  value: string,
): Use[] {
  const uses: Use[] = [];
  for (const c of calls) {
    const callee = c.callee.text;
    if (callee === 'isinstance' && c.positional.length === 2) {
      const [subject, type] = c.positional as [(typeof c.positional)[0], (typeof c.positional)[0]];
      if (textOf(subject.value) !== value) continue;
      const t = typeText(type.value);
      if (t !== undefined && CONTAINER_TYPES.test(t))
        uses.push({ range: subject.range, how: `${q(`isinstance(${value}, ${t})`)} is always false` });
    } else if (callee.startsWith(value + '.')) {
      const method = callee.slice(value.length + 1);
      if (!CONTAINER_METHODS.has(method)) continue;
      const start = c.callee.range.start;
      uses.push({
        range: { start, end: { line: start.line, character: start.character + value.length } },
        how: `a str has no ${q('.' + method + '()')} like a dict's`,
      });
    }
  }
  uses.push(...textUses(ctx.text, fnRange, value));
  return uses.sort((a, b) => cmp(a.range.start, b.range.start));
}

/**
 * Indexing with a string key and iteration are no calls: found in the hook's own text, with
 * strings and comments blanked (a slice, `value[:200]`, is right on text and stays quiet).
 */
function textUses(text: string, fnRange: Range, value: string): Use[] {
  const from = offsetAt(text, fnRange.start);
  const raw = text.slice(from, offsetAt(text, fnRange.end));
  // Blanking only removes characters: a hook that never writes `value` (most read other fields)
  // is not scanned.
  if (!raw.includes('value')) return [];
  const body = blankStringsAndComments(raw);
  const name = value.replace('.', '\\s*\\.\\s*');
  const patterns: [RegExp, string][] = [
    [new RegExp(`(?<![\\w.])${name}(?=\\s*\\[)`, 'g'), 'indexing it with a key reads a character'],
    [new RegExp(`(?<=\\bfor\\s[^:\\n]*\\bin\\s+)${name}(?=\\s*:)`, 'g'), 'iterating it walks its characters'],
  ];
  const uses: Use[] = [];
  for (const [re, how] of patterns) {
    for (const m of body.matchAll(re)) {
      const at = from + m.index;
      const end = at + m[0].length;
      if (how.startsWith('indexing') && !STRING_KEY.test(text.slice(end, end + 40))) continue;
      uses.push({ range: { start: positionAt(text, at), end: positionAt(text, end) }, how });
    }
  }
  return uses;
}

function textOf(v: LiteralValue): string | undefined {
  return v.kind === 'other' ? v.text.replace(/\s+/g, '') : undefined;
}

/** A type argument of isinstance as written: `dict`, or `(dict, list)` for a tuple. */
function typeText(v: LiteralValue): string | undefined {
  if (v.kind === 'list') {
    const items = v.items.map(textOf);
    return items.every((i) => i !== undefined) ? `(${items.join(', ')})` : undefined;
  }
  return textOf(v);
}

/** The text with every string literal's and comment's characters blanked (offsets kept). */
function blankStringsAndComments(text: string): string {
  const out = text.split('');
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (ch === '#') {
      for (; i < text.length && text[i] !== '\n'; i++) out[i] = ' ';
    } else if (ch === '"' || ch === "'") {
      const quote = text.startsWith(ch.repeat(3), i) ? ch.repeat(3) : ch;
      let j = i + quote.length;
      for (; j < text.length && !text.startsWith(quote, j); j++) {
        if (text[j] === '\\') j++;
        else if (quote.length === 1 && text[j] === '\n') break;
      }
      for (let k = i; k < Math.min(j + quote.length, text.length); k++) if (text[k] !== '\n') out[k] = ' ';
      i = j + quote.length - 1;
    }
  }
  return out.join('');
}

function cmp(a: Position, b: Position): number {
  return a.line - b.line || a.character - b.character;
}

/** Wraps the use in json.loads(…), importing json when the module does not. */
function parseFix(module: HookModule, text: string, range: Range, value: string) {
  const json = spellModuleName(module, text, 'json', 'loads');
  const edits: TextEdit[] = [{ range, newText: `${json.text}(${value})` }, ...json.importEdits];
  return fix(`Parse with ${json.text}(${value})`, edits, true);
}
