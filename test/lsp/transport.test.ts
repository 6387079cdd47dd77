// The server also runs over node IPC (`--node-ipc`), which the client may choose.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { fork } from 'node:child_process';
import { IPCMessageReader, IPCMessageWriter } from 'vscode-jsonrpc/node';
import { createProtocolConnection, InitializeRequest } from 'vscode-languageserver-protocol/node';
import { ensureBuilt, SERVER } from './lsp-client';

describe('transport', () => {
  it('answers initialize over --node-ipc', async () => {
    ensureBuilt();
    const child = fork(SERVER, ['--node-ipc'], { stdio: ['ignore', 'ignore', 'ignore', 'ipc'] });
    const conn = createProtocolConnection(new IPCMessageReader(child), new IPCMessageWriter(child));
    conn.listen();
    try {
      const r = await conn.sendRequest(InitializeRequest.type, {
        processId: process.pid,
        rootUri: null,
        capabilities: {},
        workspaceFolders: null,
      });
      assert.equal(r.serverInfo?.name, 'hooksmith');
      assert.equal(r.capabilities.hoverProvider, true);
    } finally {
      conn.dispose();
      child.kill();
    }
  });
});
