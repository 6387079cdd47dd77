// The "rasa.mantle.hooks is not installed" information (import-error, where the engine is absent from
// the interpreter) is shown once per agent: on one module, not in every module or new file; when that
// module no longer has it, another module of the agent shows it. Real server over stdio, real python3
// without rasa-pro (as on the test machine; skipped where rasa-pro is installed).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { after, before, describe, it } from 'node:test';
import type { PublishDiagnosticsParams } from 'vscode-languageserver-protocol';
import { LspClient, workspace } from './lsp-client';

const module = (name: string) => `import not_installed_anywhere
from rasa.mantle.hooks import ToolCallPayload, on_tool_call


@on_tool_call()
async def ${name}(call: ToolCallPayload) -> None:
    return None
`;

const rasaInstalled = (() => {
  try {
    execFileSync('python3', ['-c', 'import rasa.mantle.hooks'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

const notices = (p: PublishDiagnosticsParams | undefined) =>
  (p?.diagnostics ?? []).filter((d) => d.code === 'import-error' && d.severity === 3);
/** The interpreter has answered for this module: its unresolvable import is an error. */
const judged = (p: PublishDiagnosticsParams) =>
  p.diagnostics.some((d) => d.code === 'import-error' && d.severity === 1);

describe(
  'engine-not-installed information, once per agent',
  { skip: rasaInstalled && 'rasa-pro is installed' },
  () => {
    const ws = workspace({
      'agent/hooks/a_hooks.py': module('first'),
      'agent/hooks/b_hooks.py': module('second'),
    });
    let c: LspClient;
    before(async () => {
      c = await LspClient.start({ folders: [ws.dir], env: { HOOKSMITH_NO_CACHE: '1' } });
    });
    after(async () => {
      await c.stop();
      ws.cleanup();
    });

    it('one module of the agent shows it; a new module does not; it moves when that module loses it', async () => {
      const a = await c.open(ws.path('agent/hooks/a_hooks.py'), module('first'));
      const b = await c.open(ws.path('agent/hooks/b_hooks.py'), module('second'));
      await c.waitFor(a, judged, 20_000);
      await c.waitFor(b, judged, 20_000);
      const shown = [a, b].filter((u) => notices(c.last(u)).length > 0);
      assert.equal(shown.length, 1, `shown on ${shown.join(', ')}`);
      const owner = shown[0]!;
      const other = owner === a ? b : a;
      assert.match(
        notices(c.last(owner))[0]!.message,
        /rasa\.mantle\.hooks. is not installed in the selected Python/,
      );

      // A new module of the same agent: its own problems, no repeat of the information.
      const fresh = await c.open(ws.path('agent/hooks/c_hooks.py'), module('third'));
      const p = await c.waitFor(fresh, judged, 20_000);
      assert.deepEqual(notices(p), []);

      // The module that showed it no longer imports the engine: another module shows it.
      const text = 'import not_installed_anywhere\n';
      await c.change(owner, [{ text }]);
      await c.waitFor(owner, (x) => judged(x) && notices(x).length === 0, 20_000);
      await c.waitFor(other, (x) => notices(x).length === 1, 20_000);
      assert.equal(notices(c.last(fresh)).length, 0);
    });
  },
);
