// The rule reference inside VS Code: the README's rule sections (shipped in the .vsix, written
// by scripts/gen-rule-docs.ts from the rules themselves), rendered by VS Code's own Markdown
// renderer into a webview that scrolls to the rule asked for. No network, no external dialog.
import * as fs from 'node:fs';
import * as vscode from 'vscode';
import { escapeHtml, makeNonce } from '../../runtime/ui/html-kit';
import type { SHOW_DOCS_COMMAND } from '../../runtime/lsp/shared';
import type { HooksmithContext } from '../context';

/** The server's SHOW_DOCS_COMMAND, spelled here so the manifest check finds it (the type keeps them equal). */
const SHOW_RULE_DOCS = 'hooksmith.showRuleDocs' satisfies typeof SHOW_DOCS_COMMAND;

const BEGIN = '<!-- rules:begin';
const END = '<!-- rules:end -->';

/** The rule reference part of the README (every `### code` section). */
export function ruleReference(readme: string): string {
  const start = readme.indexOf(BEGIN);
  const end = readme.indexOf(END);
  if (start < 0 || end < 0) return readme;
  return readme.slice(readme.indexOf('\n', start) + 1, end);
}

/** Headings get the rule code as their id, whatever the renderer's slugs are. */
function anchorHeadings(html: string): string {
  return html.replace(/<h3([^>]*)>([a-z0-9-]+)<\/h3>/g, (_m, attrs: string, code: string) => {
    const rest = attrs.replace(/\sid="[^"]*"/, '');
    return `<h3${rest} id="${code}">${code}</h3>`;
  });
}

function page(body: string, code: string, nonce: string, cspSource: string): string {
  return `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; img-src ${cspSource} data:; style-src 'nonce-${nonce}'; script-src 'nonce-${nonce}'">
<title>Hooksmith rules</title>
<style nonce="${nonce}">
body{font-family:var(--vscode-font-family);font-size:var(--vscode-font-size);color:var(--vscode-foreground);background:var(--vscode-editor-background);padding:8px 24px;line-height:1.5;max-width:60em}
code{font-family:var(--vscode-editor-font-family);background:var(--vscode-textCodeBlock-background);padding:0 3px;border-radius:3px}
h3{margin-top:2em;padding-top:.4em;border-top:1px solid var(--vscode-panel-border)}
h3.current{color:var(--vscode-textLink-foreground)}
a{color:var(--vscode-textLink-foreground)}
</style></head><body>
<h1>Hooksmith rule reference</h1>
${body}
<script nonce="${nonce}">
const target = document.getElementById(${JSON.stringify(code)});
if (target) { target.classList.add('current'); target.scrollIntoView({ block: 'start' }); }
</script></body></html>`;
}

export function ruleDocsFeature(ctx: HooksmithContext): void {
  let panel: vscode.WebviewPanel | undefined;
  let rendered: string | undefined;

  async function body(): Promise<string> {
    if (rendered) return rendered;
    const readme = fs.readFileSync(ctx.extension.asAbsolutePath('README.md'), 'utf8');
    const md = ruleReference(readme);
    let html: string | undefined;
    try {
      html = await vscode.commands.executeCommand<string>('markdown.api.render', md);
    } catch (err) {
      ctx.log.warn('docs', `the Markdown renderer is not available: ${String(err)}`);
    }
    rendered = anchorHeadings(html ?? `<pre>${escapeHtml(md)}</pre>`);
    return rendered;
  }

  ctx.registerCommand(SHOW_RULE_DOCS, async (raw?: unknown) => {
    const code = typeof raw === 'string' ? raw.replace(/^.*#/, '') : '';
    if (!panel) {
      panel = vscode.window.createWebviewPanel(
        'hooksmith.ruleDocs',
        'Hooksmith rules',
        { viewColumn: vscode.ViewColumn.Beside, preserveFocus: true },
        { enableScripts: true, localResourceRoots: [] },
      );
      panel.onDidDispose(() => (panel = undefined));
    } else panel.reveal(undefined, true);
    panel.title = code ? `Hooksmith rule: ${code}` : 'Hooksmith rules';
    panel.webview.html = page(await body(), code, makeNonce(), panel.webview.cspSource);
    return code;
  });
}
