// What the editor's rule documentation view shows, from the pages scripts/gen-rule-docs.ts writes
// (docs/rules/<code>.md, shipped in the .vsix): links between pages stay in the view, links to
// other repository files go to the repository on the web (the .vsix does not carry them).
// No `vscode` import: pure text functions, unit-tested.
import { REPOSITORY_URL } from '../rules/diagnostics';

/** The pages' folder in the extension (and the repository). */
export const RULE_PAGES_DIR = 'docs/rules';

/** An in-view link to a rule's page (`code` empty: the list of rules), handled by the view's script. */
export function inViewHref(code: string): string {
  return `#rule:${code}`;
}

/** The rule code of an in-view link, or undefined. */
export function codeOfInViewHref(href: string): string | undefined {
  const m = /^#rule:([a-z0-9-]*)$/.exec(href);
  return m ? m[1] : undefined;
}

/** A page link as the view shows it: another page (or the README's rule list) in the view, other files on the web. */
export function viewHref(target: string): string {
  if (/^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('#')) return target;
  const [path, fragment] = target.split('#');
  const parts = `${RULE_PAGES_DIR}/${path}`.split('/');
  const resolved: string[] = [];
  for (const p of parts) {
    if (p === '..') resolved.pop();
    else if (p && p !== '.') resolved.push(p);
  }
  const file = resolved.join('/');
  const page = new RegExp(`^${RULE_PAGES_DIR}/([a-z0-9-]+)\\.md$`).exec(file);
  if (page) return inViewHref(page[1]);
  if (file === 'README.md' && fragment === 'rule-reference') return inViewHref('');
  return `${REPOSITORY_URL}/blob/main/${file}${fragment ? `#${fragment}` : ''}`;
}

/** The page's Markdown with its links rewritten for the view. */
export function pageForView(markdown: string): string {
  return markdown.replace(/\]\(([^)\s]+)\)/g, (_m, target: string) => `](${viewHref(target)})`);
}

/** A page's one-line summary (`*Engine · severity* — title`), for the list of rules. */
export function pageSummary(markdown: string): string {
  return /^\*[^\n]*\* — .*$/m.exec(markdown)?.[0] ?? '';
}

/** The list of rules the view shows without a code (`Hooksmith: Show Rule Reference`). */
export function ruleListMarkdown(pages: readonly { code: string; markdown: string }[]): string {
  const rows = pages.map(
    (p) => `| [${p.code}](${inViewHref(p.code)}) | ${pageSummary(p.markdown).replace(/\|/g, '\\|')} |`,
  );
  return ['# Hooksmith rule reference', '', '| code | |', '| - | - |', ...rows, ''].join('\n');
}
