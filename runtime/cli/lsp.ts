// `hooksmith lsp`: the language server over stdio, for editors other than VS Code
// (docs/editors.md). It runs the bundled server (dist/server.js) in a child process whose
// stdin/stdout are this one's, and exits with its code; options after `lsp` go to the server.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

/** dist/server.js beside the bundled CLI (dist/cli.js), or from the sources' runtime/cli/. */
export function bundledServer(): string | undefined {
  return [join(__dirname, 'server.js'), join(__dirname, '..', '..', 'dist', 'server.js')].find((p) =>
    existsSync(p),
  );
}

export async function runLspCommand(args: string[]): Promise<number> {
  const unknown = args.find((a) => a !== '--stdio');
  if (unknown) {
    process.stderr.write(`hooksmith lsp: unknown option ${unknown} (the server speaks LSP over stdio)\n`);
    return 2;
  }
  const server = bundledServer();
  if (!server) {
    process.stderr.write('hooksmith lsp: dist/server.js is missing (run `npm run build`)\n');
    return 2;
  }
  const child = spawn(process.execPath, [server, '--stdio'], { stdio: 'inherit' });
  // The editor stopping us stops the server too.
  for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP'] as const) process.on(signal, () => child.kill(signal));
  return new Promise((resolve) => {
    child.on('error', (err) => {
      process.stderr.write(`hooksmith lsp: could not start the server: ${err.message}\n`);
      resolve(2);
    });
    child.on('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}
