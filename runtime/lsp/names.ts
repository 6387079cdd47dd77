// Names both the server's light start (server/boot.ts) and the rest use: kept apart from
// shared.ts so that reading them loads nothing else.

/** The code-action kind that applies every preferred mechanical fix of a file. */
export const FIX_ALL_KIND = 'source.fixAll.hooksmith';

/** The server's `workspace/executeCommand` that opens a rule's page (`window/showDocument`); args: [code]. */
export const OPEN_RULE_PAGE_COMMAND = 'hooksmith.server.openRulePage';
