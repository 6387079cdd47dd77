// The Hooksmith language server: `node dist/server.js --stdio` (or --node-ipc) starts in
// server/boot.ts, which loads this file's bundle (dist/server-main.js).
// startServer only wires: the session (server/session.ts) holds the state, the routing table
// (server/routes.ts) binds each LSP method to its handler (server/handlers/), each wrapped so one
// bad file or request is logged and never kills the server.
import type { Connection } from 'vscode-languageserver/node';
import { errText } from './analyser';
import { Session } from './session';
import { ROUTES } from './routes';
import { initialize } from './handlers/requests/initialize';
import { createServerConnection, onShutdownSeen } from './transport';

export function startServer(connection: Connection): void {
  const session = new Session(connection);
  const log = session.log;
  connection.onInitialize((params) => initialize(session, params));
  for (const route of ROUTES) route(connection, session);
  // A pull waits as the other handlers do (the parser), so the didOpen before it has been handled.
  session.out.register(async (uri) => {
    await session.parserReady;
    return session.cases.handles(uri)
      ? session.caseScheduler.settle(uri)
      : session.scheduler.settle(session.analyser.keyOf(uri));
  });
  // As soon as `shutdown` is read: validations queued or in flight would only delay its answer
  // and `exit`, and nothing is published after it.
  onShutdownSeen(() => session.stopWork());
  connection.onShutdown(() => session.dispose());

  session.parserReady.catch((err: unknown) =>
    log(`[hooksmith] the Python parser failed to load: ${errText(err)}`),
  );
  process.on('uncaughtException', (err) => log(`[hooksmith] uncaught: ${errText(err)}`));
  process.on('unhandledRejection', (err) => log(`[hooksmith] unhandled rejection: ${errText(err)}`));
  connection.listen();
}

startServer(createServerConnection());
