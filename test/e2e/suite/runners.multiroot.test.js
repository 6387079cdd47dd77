// A multi-root workspace (the launcher's multi-root pass: the clean agent's copy and a second
// folder): each folder's hooks run with that folder's interpreter and settings
// (client/python/runner-service.ts keeps one warm runner per folder). Before, the first folder to
// run a hook made the one shared runner, and every other folder's Run Hook used its interpreter.
'use strict';
const assert = require('assert');
const fs = require('fs');
const path = require('path');
const vscode = require('vscode');
const e2e = require('./harness');
const h = require('./helpers');

/** A modify hook at tool_call that reports the interpreter running it. */
const WHICH_PYTHON = `import sys

from rasa.mantle.hooks import ToolCallPayload, modify_tool_call


@modify_tool_call()
async def which_python(call: ToolCallPayload) -> ToolCallPayload:
    return call.model_copy(update={"arguments": {**call.arguments, "python": sys.executable}})
`;

const SAMPLE = path.join(
  e2e.config.repoRoot,
  'examples',
  'clean-agent',
  '.hooksmith',
  'payloads',
  'tool_call.json',
);

/** Writes the hook as `module` of the folder and returns what Run Hook needs to run it. */
function placeHook(dir, module) {
  const file = path.join(dir, module);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, WHICH_PYTHON);
  const payloadFile = path.join(dir, '.hooksmith', 'payloads', 'which_python.json');
  fs.mkdirSync(path.dirname(payloadFile), { recursive: true });
  fs.copyFileSync(SAMPLE, payloadFile);
  return { file, handler: 'which_python', payloadFile };
}

async function whichPython(target) {
  const result = await vscode.commands.executeCommand('hooksmith.runHook', target);
  assert.ok(result, `Run Hook on ${target.file} returned a RunResult`);
  assert.strictEqual(result.outcome, 'returned', JSON.stringify(result.error));
  return result.payload.arguments.python;
}

describe('a multi-root workspace', function () {
  this.timeout(180000);
  let api;
  before(async () => {
    await h.closeAll();
    api = await h.activate();
  });

  it("runs each folder's hooks with that folder's hooksmith.pythonPath", async () => {
    const folders = vscode.workspace.workspaceFolders || [];
    assert.strictEqual(folders.length, 2, 'the multi-root pass opens two folders');
    const [one, two] = folders.map((f) => f.uri.fsPath);
    // The clean agent's copy has a modify_tool_call hook already (one per point): this pass's
    // copy gets WHICH_PYTHON in its place.
    const first = placeHook(one, 'hooks/tool_hooks.py');
    const second = placeHook(two, 'hooks.py');
    const found = (r) =>
      r.agents.flatMap((a) => a.hooks).filter((x) => x.handler === 'which_python').length === 2;
    await h.waitForHooks(api, found, { what: 'which_python in both folders' });
    const python = await whichPython(first);
    assert.ok(python && fs.existsSync(python), `the first folder ran ${python}`);
    // The second folder's interpreter: a link of its own to the same Python (sys.executable keeps
    // the path it was started by), so which runner ran the hook shows in its result.
    const own = path.join(two, 'own-python3');
    fs.symlinkSync(fs.realpathSync(python), own);
    fs.mkdirSync(path.join(two, '.vscode'), { recursive: true });
    fs.writeFileSync(
      path.join(two, '.vscode', 'settings.json'),
      JSON.stringify({ 'hooksmith.pythonPath': own }),
    );
    await e2e.waitFor(
      () => vscode.workspace.getConfiguration('hooksmith', vscode.Uri.file(two)).get('pythonPath') === own,
      { timeout: h.LONG, what: "the second folder's hooksmith.pythonPath" },
    );
    assert.strictEqual(
      await whichPython(second),
      own,
      "the second folder's hook ran with its own interpreter",
    );
    assert.strictEqual(await whichPython(first), python, 'the first folder kept its own interpreter');
    assert.strictEqual(await whichPython(second), own);
  });
});
