// What the features write, adapted to the client that reads it: rule links in hovers are
// `command:` URIs only where Hooksmith's VS Code client runs them (elsewhere the rule's page on
// the web), and completion snippets become plain text where the client takes no snippets.
import { InsertTextFormat, type CompletionItem, type Hover, type MarkupContent } from 'vscode-languageserver';
import { SHOW_DOCS_COMMAND } from '../../runtime/lsp/shared';
import { ruleDocsUrl } from '../../runtime/rules/diagnostics';
import type { ClientProfile } from '../client-profile';

const COMMAND_LINK = new RegExp(
  `command:${SHOW_DOCS_COMMAND.replace(/\./g, '\\.')}\\?[^)\\s#]*#([a-z0-9-]+)`,
  'g',
);

/** Markdown with each rule's `command:` link replaced by its page on the web. */
export function webRuleLinks(markdown: string): string {
  return markdown.replace(COMMAND_LINK, (_, code: string) => ruleDocsUrl(code));
}

/**
 * Snippet text as the plain text it inserts: placeholders keep their default text, tab stops
 * and `$0` go, escapes are undone (LSP snippet grammar).
 */
export function plainSnippet(snippet: string): string {
  let out = '';
  for (let i = 0; i < snippet.length; i++) {
    const ch = snippet[i]!;
    if (ch === '\\' && i + 1 < snippet.length && '$}\\,|'.includes(snippet[i + 1]!)) {
      out += snippet[++i];
    } else if (ch === '$') {
      const tabStop = /^\$(\d+)/.exec(snippet.slice(i));
      const braced = /^\$\{\d+(?::|\|)?/.exec(snippet.slice(i));
      if (tabStop) i += tabStop[0].length - 1;
      else if (braced) {
        // `${1:default}` keeps `default`; `${1|a,b|}` keeps `a`; the closing brace is dropped below.
        const rest = snippet.slice(i + braced[0].length);
        const end = matchingBrace(rest);
        const inner = rest.slice(0, end);
        out += braced[0].endsWith('|') ? inner.replace(/\|$/, '').split(',')[0] : plainSnippet(inner);
        i += braced[0].length + end;
      } else out += ch;
    } else out += ch;
  }
  return out;
}

/** The index of the `}` closing a placeholder whose text starts `rest` (nested ones skipped). */
function matchingBrace(rest: string): number {
  let depth = 0;
  for (let i = 0; i < rest.length; i++) {
    if (rest[i] === '\\') i++;
    else if (rest[i] === '{') depth++;
    else if (rest[i] === '}' && depth-- === 0) return i;
  }
  return rest.length;
}

function plainItem(item: CompletionItem): CompletionItem {
  if (item.insertTextFormat !== InsertTextFormat.Snippet) return item;
  const out: CompletionItem = { ...item, insertTextFormat: InsertTextFormat.PlainText };
  if (item.insertText !== undefined) out.insertText = plainSnippet(item.insertText);
  if (item.textEdit) out.textEdit = { ...item.textEdit, newText: plainSnippet(item.textEdit.newText) };
  return out;
}

export const forClient = {
  hover(client: ClientProfile, h: Hover | null): Hover | null {
    if (!h || client.vscode) return h;
    const c = h.contents as MarkupContent;
    if (typeof c !== 'object' || !('value' in c)) return h;
    return { ...h, contents: { ...c, value: webRuleLinks(c.value) } };
  },
  completions(client: ClientProfile, items: CompletionItem[]): CompletionItem[] {
    return client.snippets ? items : items.map(plainItem);
  },
};
