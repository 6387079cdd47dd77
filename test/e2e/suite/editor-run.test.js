// Issue 14, items 2–4 and the run lens: a refused run is shown in the result panel itself
// (what blocks it, each error a link, workspace-relative paths), replacing the previous result;
// the CodeLens says "✖ cannot run: N errors"; the panel shows what the end user sees (the text
// itself) and, for a failed run, no diff but what the engine carries on with.
'use strict';
const assert = require('assert');
const fs = require('fs');
const path = require('path');
const vscode = require('vscode');
const e2e = require('./harness');
const h = require('./helpers');

const BROKEN = `from rasa.mantle.hooks import HookRejection, ToolCallPayload, modify_tool_call


@modify_tool_call()
def guard(call: ToolCallPayload) -> ToolCallPayload:
    if call.tool_name == "delete_account":
        raise HookRejection("no deletes")
    return call
`;
const FIXED = `from rasa.mantle.hooks import RetryModel, ToolCallPayload, modify_tool_call


@modify_tool_call()
async def guard(call: ToolCallPayload) -> ToolCallPayload:
    if call.tool_name == "delete_account":
        raise RetryModel("no deletes")
    return call
`;
const SLOW = `import asyncio

from rasa.mantle.hooks import OutgoingTextPayload, ToolCallPayload, modify_outgoing_text, modify_tool_call


@modify_outgoing_text()
async def shout(payload: OutgoingTextPayload) -> OutgoingTextPayload:
    return payload.model_copy(update={"text": payload.text.upper()})


@modify_tool_call(timeout_ms=50)
async def slow(call: ToolCallPayload) -> ToolCallPayload:
    await asyncio.sleep(1)
    return call
`;

function shot(name) {
  return h.settledScreenshot(path.join(e2e.config.repoRoot, 'test-output', `editor-${name}.png`));
}

async function lensTitles(uri) {
  const lenses = (await vscode.commands.executeCommand('vscode.executeCodeLensProvider', uri)) || [];
  return lenses.map((l) => (l.command ? l.command.title : ''));
}

describe('issue 14: refused runs, run lens, user-visible text, failed runs', function () {
  this.timeout(240000);
  let api;
  const dir = () => h.ws('editor-run');
  before(async () => {
    await h.closeAll();
    api = await h.activate();
    fs.mkdirSync(dir(), { recursive: true });
  });
  after(async () => {
    await h.closeAll();
    fs.rmSync(dir(), { recursive: true, force: true });
  });

  it('refused run: the lens says "✖ cannot run: 2 errors"; the panel shows the errors as links with workspace paths, replacing the previous result', async () => {
    // A previous, good result in the panel.
    const ok = await vscode.commands.executeCommand('hooksmith.runHook', {
      file: h.ws('hooks/tool_hooks.py'),
      handler: 'guard_orders',
      payloadFile: h.ws('.hooksmith/payloads/tool_call.json'),
    });
    assert.strictEqual(ok && ok.outcome, 'returned');
    const file = path.join(dir(), 'hooks.py');
    await h.writeFile(file, BROKEN);
    const doc = await h.open(file);
    await h.waitForOurs(
      doc.uri,
      (d) => d.filter((x) => x.severity === vscode.DiagnosticSeverity.Error).length === 2,
    );
    await h.waitForHooks(api, (r) => r.agents.some((a) => a.hooks.some((x) => x.handler === 'guard')));
    const titles = await e2e.waitFor(
      async () => {
        const t = await lensTitles(doc.uri);
        return t.includes('✖ cannot run: 2 errors') ? t : undefined;
      },
      { timeout: h.LONG, what: 'the "✖ cannot run: 2 errors" lens' },
    );
    assert.ok(!titles.includes('▶ Run hook'), JSON.stringify(titles));

    const result = await vscode.commands.executeCommand('hooksmith.runHook', {
      file,
      handler: 'guard',
      payloadFile: h.ws('.hooksmith/payloads/tool_call.json'),
    });
    assert.strictEqual(result, undefined, 'nothing ran');
    const last = await vscode.commands.executeCommand('hooksmith.lastHookRun');
    assert.strictEqual(last.result, undefined, 'no stale result is kept as this run’s');
    const refusal = last.refusal;
    assert.ok(refusal, 'the refusal is recorded');
    assert.deepStrictEqual(refusal.problems.map((p) => `${p.shown}:${p.line} ${p.code}`).sort(), [
      'editor-run/hooks.py:5 sync-handler',
      'editor-run/hooks.py:7 unsupported-control-signal',
    ]);
    assert.ok(refusal.problems.every((p) => p.file === file));
    assert.ok(!JSON.stringify(refusal).includes('../'), 'no ../ paths');
    // One panel, now titled for this refused run (the title reaches the tab asynchronously).
    await e2e.waitFor(
      () => {
        const tabs = h.webviewTabs('hooksmith.runResult');
        return tabs.length === 1 && tabs[0].label === 'Run: guard';
      },
      { timeout: h.LONG, what: 'one result panel, titled "Run: guard"' },
    );
    await shot('refused-run');

    // Fixed: the lens offers Run again and the run replaces the refusal.
    await h.writeFile(file, FIXED);
    await h.waitForOurs(doc.uri, (d) => !d.some((x) => x.severity === vscode.DiagnosticSeverity.Error));
    await e2e.waitFor(async () => (await lensTitles(doc.uri)).includes('▶ Run hook'), {
      timeout: h.LONG,
      what: 'the "▶ Run hook" lens after the fix',
    });
    const rerun = await vscode.commands.executeCommand('hooksmith.runHook', {
      file,
      handler: 'guard',
      payloadFile: h.ws('.hooksmith/payloads/tool_call.json'),
    });
    assert.strictEqual(rerun && rerun.outcome, 'returned');
    const again = await vscode.commands.executeCommand('hooksmith.lastHookRun');
    assert.strictEqual(again.refusal, undefined);
  });

  it('refused simulation: the timeline panel shows the blocking errors, not the previous turn', async () => {
    const file = path.join(dir(), 'hooks.py');
    await h.writeFile(file, BROKEN);
    const scenario = path.join(dir(), 'refused.scenario.yaml');
    fs.writeFileSync(scenario, 'name: refused\nuser: "delete my account"\ncompletions:\n  - text: "ok"\n');
    const result = await vscode.commands.executeCommand('hooksmith.simulateTurn', vscode.Uri.file(scenario));
    assert.strictEqual(result, undefined);
    const last = await vscode.commands.executeCommand('hooksmith.lastSimulation');
    assert.ok(last && last.refusal, JSON.stringify(last));
    assert.ok(
      last.refusal.problems.some((p) => p.shown === 'editor-run/hooks.py' && p.code === 'sync-handler'),
      JSON.stringify(last.refusal.problems),
    );
    await e2e.waitFor(
      () => h.webviewTabs('hooksmith.timeline').find((t) => t.label === 'Turn: refused.scenario.yaml'),
      { timeout: h.LONG, what: 'the timeline panel showing the refusal' },
    );
    await shot('refused-simulation');
    await h.writeFile(file, FIXED);
  });

  it('the panel shows the text the user sees (upper-cased reply) and the next step apart', async () => {
    const file = path.join(dir(), 'text_hooks.py');
    await h.writeFile(file, SLOW);
    const result = await vscode.commands.executeCommand('hooksmith.runHook', {
      file,
      handler: 'shout',
      payload: {
        ...JSON.parse(fs.readFileSync(h.ws('.hooksmith/payloads/outgoing_text.json'), 'utf8')),
        text: '  your pizza is on its way',
      },
    });
    assert.strictEqual(result.outcome, 'returned', JSON.stringify(result.error));
    const html = h
      .repoModule('runtime/ui/result-html.ts')
      .renderRunResultHtml(result, { nonce: 'n', cspSource: 'c' });
    assert.match(html, /<blockquote class="user-text"> {2}YOUR PIZZA IS ON ITS WAY<\/blockquote>/);
    assert.match(html, /<strong>Next:<\/strong> this text is stored and sent to the user/);
    await shot('user-visible-text');
  });

  it('a timed-out run shows no diff, only what the engine carries on with', async () => {
    const result = await vscode.commands.executeCommand('hooksmith.runHook', {
      file: path.join(dir(), 'text_hooks.py'),
      handler: 'slow',
      payloadFile: h.ws('.hooksmith/payloads/tool_call.json'),
    });
    assert.strictEqual(result.outcome, 'timed-out');
    const html = h
      .repoModule('runtime/ui/result-html.ts')
      .renderRunResultHtml(result, { nonce: 'n', cspSource: 'c' });
    assert.ok(!html.includes('<table class="diff"'), 'no diff table');
    assert.match(
      html,
      /No diff: the hook timed out\. The engine carries on with <strong>nothing: the engine stops here/,
    );
    assert.match(html, /The fallback response: <code>utter_tool_call_hook_error<\/code>/);
    await shot('timed-out');
  });

  it('"Run all hooks in this file" runs each hook; a crash gets a red gutter mark on its traceback line, cleared by the next run', async () => {
    fs.mkdirSync(path.join(dir(), 'hooks'), { recursive: true });
    const hooksFile = path.join(dir(), 'hooks', 'crashy.py');
    await h.writeFile(
      hooksFile,
      [
        'from rasa.mantle.hooks import KnowledgeQueryPayload, ToolResultPayload, modify_knowledge_query, modify_tool_result',
        '',
        '',
        '@modify_knowledge_query()',
        'async def fine(query: KnowledgeQueryPayload) -> KnowledgeQueryPayload:',
        '    return query',
        '',
        '',
        '@modify_tool_result()',
        'async def boom(result: ToolResultPayload) -> ToolResultPayload:',
        '    data = {}',
        '    return data["missing"]',
        '',
      ].join('\n'),
    );
    const doc = await h.open(hooksFile);
    await h.waitForHooks(api, (r) => r.agents.some((a) => a.hooks.some((x) => x.handler === 'boom')));
    const titles = await e2e.waitFor(
      async () => {
        const t = await lensTitles(doc.uri);
        return t.includes('▶ Run all 2 hooks in this file') ? t : undefined;
      },
      { timeout: h.LONG, what: 'the "Run all 2 hooks" lens' },
    );
    assert.ok(titles.includes('▶ Run hook'));
    const results = await vscode.commands.executeCommand('hooksmith.runAllHooksInFile', { file: hooksFile });
    assert.deepStrictEqual(
      results.map((r) => `${r.handler}:${r.outcome}`),
      ['fine:returned', 'boom:crashed'],
    );
    const marks = await vscode.commands.executeCommand('hooksmith.crashMarks');
    assert.deepStrictEqual(
      marks.map((m) => `${path.basename(m.file)}:${m.line}`),
      ['crashy.py:12'],
    );
    assert.match(marks[0].message, /boom crashed here: KeyError/);
    await e2e.waitFor(
      () => h.webviewTabs('hooksmith.runResult').find((t) => t.label === 'Run all: crashy.py'),
      { timeout: h.LONG, what: 'the "Run all: crashy.py" panel' },
    );
    await shot('run-all-crash-mark');
    // The next run clears the mark.
    const again = await vscode.commands.executeCommand('hooksmith.runHook', {
      file: hooksFile,
      handler: 'fine',
      payloadFile: h.ws('.hooksmith/payloads/knowledge_query.json'),
    });
    assert.strictEqual(again.outcome, 'returned');
    assert.deepStrictEqual(await vscode.commands.executeCommand('hooksmith.crashMarks'), []);
  });
});
