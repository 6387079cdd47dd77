// The rule documentation inside VS Code: the rule's own page, docs/rules/<code>.md (written by
// scripts/gen-rule-docs.ts from the rule, shipped in the .vsix), rendered by VS Code's Markdown
// renderer into a webview. Links between pages stay in the view. No network, no external dialog.
import * as fs from 'node:fs';
import * as vscode from 'vscode';
import { escapeHtml, makeNonce } from '../../runtime/ui/html-kit';
import { codeOfInViewHref, pageForView, RULE_PAGES_DIR, ruleListMarkdown } from '../../runtime/ui/rule-page';
import type { SHOW_DOCS_COMMAND } from '../../runtime/lsp/shared';
import type { HooksmithContext } from '../context';

/** The server's SHOW_DOCS_COMMAND, spelled here so the manifest check finds it (the type keeps them equal). */
const SHOW_RULE_DOCS = 'hooksmith.showRuleDocs' satisfies typeof SHOW_DOCS_COMMAND;

/** The page's title heading gets the rule code as its id, whatever the renderer's slugs are. */
function anchorTitle(html: string, code: string): string {
  return html.replace(
    /<h1([^>]*)>/,
    (_m, attrs: string) => `<h1${attrs.replace(/\sid="[^"]*"/, '')} id="${code}">`,
  );
}

function page(body: string, nonce: string, cspSource: string): string {
  return `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; img-src ${cspSource} data:; style-src 'nonce-${nonce}'; script-src 'nonce-${nonce}'">
<title>Hooksmith rules</title>
<style nonce="${nonce}">
body{font-family:var(--vscode-font-family);font-size:var(--vscode-font-size);color:var(--vscode-foreground);background:var(--vscode-editor-background);padding:8px 24px;line-height:1.5;max-width:60em}
code{font-family:var(--vscode-editor-font-family);background:var(--vscode-textCodeBlock-background);padding:0 3px;border-radius:3px}
pre{background:var(--vscode-textCodeBlock-background);padding:8px;overflow:auto}
pre code{padding:0}
h2{margin-top:1.6em;padding-top:.3em;border-top:1px solid var(--vscode-panel-border)}
table{border-collapse:collapse}td,th{padding:2px 8px;border-bottom:1px solid var(--vscode-panel-border);text-align:left}
a{color:var(--vscode-textLink-foreground)}
</style></head><body>
${body}
<script nonce="${nonce}">
const vscode = acquireVsCodeApi();
document.addEventListener('click', (e) => {
  const a = e.target instanceof Element ? e.target.closest('a[href^="#rule:"]') : null;
  if (!a) return;
  e.preventDefault();
  vscode.postMessage({ show: a.getAttribute('href').slice('#rule:'.length) });
});
</script></body></html>`;
}

export function ruleDocsFeature(ctx: HooksmithContext): void {
  let panel: vscode.WebviewPanel | undefined;
  const pagesDir = ctx.extension.asAbsolutePath(RULE_PAGES_DIR);

  function readPage(code: string): string | undefined {
    if (!/^[a-z0-9-]+$/.test(code)) return undefined;
    try {
      return fs.readFileSync(`${pagesDir}/${code}.md`, 'utf8');
    } catch (err) {
      ctx.log.warn('docs', `no documentation page for ${code}: ${String(err)}`);
      return undefined;
    }
  }

  function ruleList(): string {
    let files: string[] = [];
    try {
      files = fs.readdirSync(pagesDir).filter((f) => f.endsWith('.md'));
    } catch (err) {
      ctx.log.error('docs', `the rule pages are missing from the extension (${pagesDir}): ${String(err)}`);
    }
    const pages = files.map((f) => f.slice(0, -3)).map((code) => ({ code, markdown: readPage(code) ?? '' }));
    return ruleListMarkdown(pages);
  }

  async function render(md: string): Promise<string> {
    try {
      const html = await vscode.commands.executeCommand<string>('markdown.api.render', md);
      if (typeof html === 'string') return html;
    } catch (err) {
      ctx.log.warn('docs', `the Markdown renderer is not available: ${String(err)}`);
    }
    return `<pre>${escapeHtml(md)}</pre>`;
  }

  async function show(code: string): Promise<string> {
    const own = code ? readPage(code) : undefined;
    const md = own ?? (code ? `*No page for \`${code}\`.*\n\n` : '') + ruleList();
    if (!panel) {
      panel = vscode.window.createWebviewPanel(
        'hooksmith.ruleDocs',
        'Hooksmith rules',
        { viewColumn: vscode.ViewColumn.Beside, preserveFocus: true },
        { enableScripts: true, localResourceRoots: [] },
      );
      panel.onDidDispose(() => (panel = undefined));
      panel.webview.onDidReceiveMessage((m: { show?: unknown }) => {
        const next = typeof m?.show === 'string' ? codeOfInViewHref(`#rule:${m.show}`) : undefined;
        if (next !== undefined) void show(next);
      });
    } else panel.reveal(undefined, true);
    panel.title = own ? `Hooksmith rule: ${code}` : 'Hooksmith rules';
    const body = anchorTitle(await render(pageForView(md)), own ? code : 'rules');
    panel.webview.html = page(body, makeNonce(), panel.webview.cspSource);
    return code;
  }

  ctx.registerCommand(SHOW_RULE_DOCS, async (raw?: unknown) =>
    show(typeof raw === 'string' ? raw.replace(/^.*#/, '') : ''),
  );
  // A diagnostic's code link (ruleDocsAppUri): `<app>://hooksmith.hooksmith/rule/<code>`, `/rules` for the list.
  ctx.push(
    vscode.window.registerUriHandler({
      handleUri(uri) {
        const code = /^\/rule\/([a-z0-9-]+)$/.exec(uri.path)?.[1];
        if (code || uri.path === '/rules') void show(code ?? '');
        else ctx.log.warn('docs', `no page at ${uri.toString(true)}`);
      },
    }),
  );
}
