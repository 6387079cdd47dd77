// A hook module that fails to load (real python3): the run is refused with the exception and its
// frames (RunInputError.loadError), formatted a frame a line with the user's frames linked and
// Python's dimmed, and placed on the failing line of the user's code (where the editor marks it).
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, sep } from 'node:path';
import { after, before, test } from 'node:test';
import { RunInputError } from '../../runtime/engine/run-hook';
import { createHookRunner, type HookRunner } from '../../runtime/engine/runner';
import { loadErrorPlace, loadErrorView } from '../../runtime/ui/load-error-html';
import { renderRefusalHtml } from '../../runtime/ui/refusal-html';

let dir: string;
let runner: HookRunner;

const HOOKS = `from rasa.mantle.hooks import ToolCallPayload, on_tool_call
import lib.settings


@on_tool_call()
async def audit(call: ToolCallPayload) -> None:
    return None
`;
const PAYLOAD = {
  tool_name: 'x',
  arguments: {},
  headers: {},
  sender_id: 'u',
  call: null,
  channel: { name: 'rest', metadata: {} },
};

function agent(name: string, settings: string): string {
  const root = join(dir, name);
  mkdirSync(join(root, 'lib'), { recursive: true });
  writeFileSync(join(root, 'lib', '__init__.py'), '');
  writeFileSync(join(root, 'lib', 'settings.py'), settings);
  writeFileSync(join(root, 'hooks.py'), HOOKS);
  return root;
}

async function loadError(root: string): Promise<RunInputError> {
  try {
    await runner.run({ file: join(root, 'hooks.py'), handler: 'audit', payload: PAYLOAD });
  } catch (err) {
    if (err instanceof RunInputError) return err;
    throw err;
  }
  assert.fail('the run was not refused');
}

before(() => {
  dir = mkdtempSync(join(tmpdir(), 'hooksmith-load-error-'));
  runner = createHookRunner();
});
after(async () => {
  await runner.dispose();
  rmSync(dir, { recursive: true, force: true });
});

const inDir = (f: string) => !relative(dir, f).startsWith('..');
const shown = (f: string) => relative(dir, f).split(sep).join('/');

test('a KeyError in an imported module at import time: frames, the failing line, the formatted panel', async () => {
  const root = agent('keyerror', 'import os\n\nTOKEN = os.environ["HOOKSMITH_NO_SUCH_VARIABLE"]\n');
  const err = await loadError(root);
  assert.equal(err.kind, 'load');
  assert.ok(err.loadError, 'the exception travels with the refusal');
  assert.equal(err.loadError.type, 'KeyError');
  const view = loadErrorView(err.loadError, inDir, shown);
  // hooks.py:2 (the import), lib/settings.py:3, then os's own frame.
  const user = view.frames.filter((f) => f.user).map((f) => `${f.shown}:${f.line}`);
  assert.deepEqual(user, ['keyerror/hooks.py:2', 'keyerror/lib/settings.py:3']);
  assert.ok(
    view.frames.some((f) => !f.user),
    'the frame inside os is not the user code',
  );
  assert.deepEqual(loadErrorPlace(view), { file: join(root, 'lib', 'settings.py'), line: 3, column: 1 });

  const html = renderRefusalHtml(
    {
      subject: 'audit',
      reason: err.message,
      problems: [],
      details: err.details,
      loadError: view,
      actions: ['rerun'],
    },
    { nonce: 'n', cspSource: 'x' },
  );
  assert.match(html, /<code class="tone-error">KeyError: &#39;HOOKSMITH_NO_SUCH_VARIABLE&#39;<\/code>/);
  assert.match(
    html,
    /<li class="user"><a href="#" class="frame mono" data-file="[^"]*settings\.py" data-line="3" title="Open keyerror\/lib\/settings\.py:3">keyerror\/lib\/settings\.py:3<\/a> <span class="note">in<\/span> <code>&#60;module&#62;<\/code><pre class="src">TOKEN = os\.environ/,
  );
  assert.match(html, /<li class="lib">/);
  assert.match(html, /<summary>As Python prints it<\/summary><pre>Traceback \(most recent call last\):/);
  assert.match(html, /none of its hooks registered/);
  // Not the one flattened paragraph of before.
  assert.ok(!/<ul class="notes"><li>Traceback/.test(html));
});

test('a SyntaxError in an imported module: its place (line and column) is where the load failed', async () => {
  const root = agent('syntax', 'VALUE = 1\nBROKEN = (\n');
  const err = await loadError(root);
  assert.ok(err.loadError);
  assert.equal(err.loadError.type, 'SyntaxError');
  const view = loadErrorView(err.loadError, inDir, shown);
  const place = loadErrorPlace(view);
  assert.equal(place?.file, join(root, 'lib', 'settings.py'));
  assert.equal(place?.line, 2);
  const html = renderRefusalHtml(
    { subject: 'audit', reason: err.message, problems: [], details: [], loadError: view, actions: [] },
    { nonce: 'n', cspSource: 'x' },
  );
  assert.match(
    html,
    /data-line="2" title="Open syntax\/lib\/settings\.py:2">syntax\/lib\/settings\.py:2:\d+<\/a>/,
  );
});

test('a module that loads after the fix runs', async () => {
  const root = agent('fixed', 'TOKEN = "set"\n');
  const result = await runner.run({ file: join(root, 'hooks.py'), handler: 'audit', payload: PAYLOAD });
  assert.equal(result.outcome, 'returned');
});

test('the same module, fixed, loads on the next run of the warm host (its agent root back on sys.path)', async () => {
  // hooks/audit.py imports a module of the agent root: after the failed import the root must be
  // importable again (the case baseline was taken before it was added).
  const root = join(dir, 'refixed');
  mkdirSync(join(root, 'hooks'), { recursive: true });
  writeFileSync(join(root, 'hooks.py'), '');
  writeFileSync(join(root, 'hooks', '__init__.py'), '');
  writeFileSync(
    join(root, 'agent_settings.py'),
    'import os\n\nTOKEN = os.environ["HOOKSMITH_NO_SUCH_VARIABLE"]\n',
  );
  const file = join(root, 'hooks', 'audit.py');
  writeFileSync(file, HOOKS.replace('import lib.settings', 'import agent_settings'));
  await assert.rejects(runner.run({ file, handler: 'audit', payload: PAYLOAD }), (e: unknown) => {
    assert.ok(e instanceof RunInputError && e.loadError?.type === 'KeyError', String(e));
    return true;
  });
  writeFileSync(join(root, 'agent_settings.py'), 'TOKEN = "set"\n');
  const result = await runner.run({ file, handler: 'audit', payload: PAYLOAD });
  assert.equal(result.outcome, 'returned');
});
