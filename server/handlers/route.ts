// How a handler is bound to its LSP method (server/routes.ts lists them): it waits for the parser,
// and a failure is logged and answered with the route's fallback, so one bad file or request never
// kills the server.
import type { Connection, NotificationType, RequestType } from 'vscode-languageserver/node';
import type { Session } from '../session';

/** Binds one method of the routing table on the connection. */
export type Route = (connection: Connection, session: Session) => void;

function guarded<P, R>(
  session: Session,
  name: string,
  fallback: R,
  run: (session: Session, params: P) => R | Promise<R>,
): (params: P) => Promise<R> {
  return async (params: P) => {
    try {
      await session.parserReady;
      return await run(session, params);
    } catch (err) {
      session.logFailure(name, err);
      return fallback;
    }
  };
}

export function notification<P>(
  type: NotificationType<P>,
  name: string,
  run: (session: Session, params: P) => void | Promise<void>,
): Route {
  return (connection, session) => connection.onNotification(type, guarded(session, name, undefined, run));
}

/** A request: a typed LSP one, or one of Hooksmith's by its method name (its params as the client sent them). */
export function request<P, R>(
  type: RequestType<P, R, unknown> | string,
  name: string,
  fallback: R,
  run: (session: Session, params: P) => R | Promise<R>,
): Route {
  return (connection, session) => {
    const handler = guarded(session, name, fallback, run);
    if (typeof type === 'string') connection.onRequest(type, (params: P) => handler(params));
    else connection.onRequest(type, handler);
  };
}
