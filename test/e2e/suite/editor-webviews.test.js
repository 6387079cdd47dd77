// Issue 14, in the webviews themselves (real clicks and reads in the page, through the launcher's
// browser; code-server only, skipped under electron): timeline hook names and traceback lines open
// their source; the filters, "Jump to first problem", change markers and tool names work on screen;
// a transcript bubble says its fallback once; a refused run's error links open their line and no
// toast is left; the result panel keeps leading whitespace, does not wrap "Change", draws the clock.
'use strict';
const assert = require('assert');
const fs = require('fs');
const path = require('path');
const vscode = require('vscode');
const e2e = require('./harness');
const h = require('./helpers');

const TIMELINE = 'Simulated turn — ';

function shot(name) {
  return h.settledScreenshot(path.join(e2e.config.repoRoot, 'test-output', `editor-${name}.png`), 1500);
}

/** Runs `fn` (a function's source) in the webview titled `webview` and returns its result. */
const read = (webview, fn, arg, selector) => e2e.ui({ op: 'eval', webview, fn: String(fn), arg, selector });

/** The same file on disk (the run folder may be reached through a symlink). */
const same = (a, b) => fs.realpathSync(a) === fs.realpathSync(b);

/** Waits for the active editor to show `file` with the cursor on a line accepted by `lineOk`. */
function waitForEditorAt(file, lineOk, what) {
  return e2e.waitFor(
    () => {
      const ed = vscode.window.activeTextEditor;
      return ed && same(ed.document.uri.fsPath, file) && lineOk(ed.selection.active.line) ? ed : undefined;
    },
    {
      timeout: h.LONG,
      what: `${what} (active: ${vscode.window.activeTextEditor?.document.uri.fsPath}:${(vscode.window.activeTextEditor?.selection.active.line ?? -2) + 1})`,
    },
  );
}

/** The visible events of the timeline: outcome, changed flag and hook name of each. */
const visibleEvents = () =>
  read(TIMELINE, () =>
    Array.from(document.querySelectorAll('li.event'))
      .filter((li) => li.offsetParent !== null)
      .map((li) => ({ outcome: li.dataset.outcome, changed: li.dataset.changed, hook: li.dataset.hook })),
  );

describe('issue 14: the webviews, clicked and read as a person does', function () {
  this.timeout(240000);
  let api;
  before(async function () {
    if (!e2e.canDriveUi()) return this.skip();
    await h.closeAll();
    api = await h.activate();
    await h.wireWithoutTextPoints(); // the "not invoked" labels (rasa-pro 3.21 invokes every point)
  });
  after(async () => {
    await h.wireAsInstalled();
    await h.closeAll();
  });

  describe('the timeline of order-pizza', () => {
    let result;
    before(async function () {
      if (!e2e.canDriveUi()) return this.skip();
      await h.waitForHooks(api, (r) =>
        r.agents.some((a) => a.hooks.some((x) => x.handler === 'guard_orders')),
      );
      result = await vscode.commands.executeCommand(
        'hooksmith.simulateTurn',
        vscode.Uri.file(h.ws('order-pizza.scenario.yaml')),
      );
      assert.ok(result && result.events.length, 'a SimulationResult');
      await e2e.waitFor(
        async () =>
          (await read(TIMELINE, () => document.querySelectorAll('li.event').length).catch(() => 0)) > 0,
        { timeout: h.LONG, what: 'the timeline rendered in its webview' },
      );
    });

    it('collapsed rows show the change marker and the tool name', async () => {
      const rows = await read(TIMELINE, () =>
        Array.from(document.querySelectorAll('li.event > .row')).map((r) => ({
          point: r.querySelector('.point').innerText,
          hook: r.querySelector('.hook').innerText,
          expanded: r.getAttribute('aria-expanded'),
        })),
      );
      const guard = rows.find((r) => /^tool_call place_order/.test(r.point) && /guard_orders/.test(r.hook));
      assert.ok(guard, JSON.stringify(rows.filter((r) => r.point.startsWith('tool_'))));
      assert.strictEqual(guard.expanded, 'false', 'seen on a collapsed row');
      assert.match(guard.hook, /Δ 1 changed/);
      // A hook that changed nothing has no marker (redact_pii only re-spaces the JSON Cayu already redacted).
      assert.ok(
        rows.some((r) => /^tool_result lookup_customer/.test(r.point) && r.hook === 'redact_pii'),
        JSON.stringify(rows.filter((r) => r.point.startsWith('tool_'))),
      );
      const unchanged = rows.find(
        (r) => /^tool_call lookup_customer/.test(r.point) && /guard_orders/.test(r.hook),
      );
      assert.ok(unchanged && !unchanged.hook.includes('Δ'), JSON.stringify(unchanged));
    });

    it('filters: changed only, outcome other than returned, one hook', async () => {
      const all = await visibleEvents();
      assert.strictEqual(all.length, result.events.length);
      await e2e.ui({ op: 'check', webview: TIMELINE, selector: '#f-changed' });
      const changed = await visibleEvents();
      assert.ok(changed.length > 0 && changed.length < all.length, `${changed.length} of ${all.length}`);
      assert.ok(
        changed.every((e) => e.changed === '1'),
        JSON.stringify(changed),
      );
      await e2e.ui({ op: 'uncheck', webview: TIMELINE, selector: '#f-changed' });
      await e2e.ui({ op: 'check', webview: TIMELINE, selector: '#f-problems' });
      const problems = await visibleEvents();
      const want = result.events.filter((e) => e.outcome && e.outcome !== 'returned').map((e) => e.outcome);
      assert.ok(want.length > 0, 'order-pizza has a RetryModel');
      assert.deepStrictEqual(
        problems.map((e) => e.outcome),
        want,
      );
      await e2e.ui({ op: 'uncheck', webview: TIMELINE, selector: '#f-problems' });
      await e2e.ui({ op: 'select', webview: TIMELINE, selector: '#f-hook', value: 'guard_orders' });
      const one = await visibleEvents();
      assert.strictEqual(
        one.length,
        result.events.filter((e) => e.hook && e.hook.endsWith('::guard_orders')).length,
      );
      assert.ok(one.length > 0 && one.every((e) => e.hook === 'guard_orders'), JSON.stringify(one));
      await shot('timeline-filter-hook');
      await e2e.ui({ op: 'select', webview: TIMELINE, selector: '#f-hook', value: '' });
      assert.strictEqual((await visibleEvents()).length, all.length, 'all rows back');
    });

    it('"Jump to first problem" expands and focuses the first step that is not a plain return', async () => {
      const first = result.events.find((e) => e.outcome && e.outcome !== 'returned');
      await e2e.ui({ op: 'click', webview: TIMELINE, selector: '#jump-problem' });
      const focused = await read(TIMELINE, () => {
        const row = document.activeElement;
        if (!row || !row.classList.contains('row')) return null;
        const details = document.getElementById(row.getAttribute('aria-controls'));
        const box = row.getBoundingClientRect();
        return {
          seq: row.querySelector('.seq').innerText,
          expanded: row.getAttribute('aria-expanded'),
          detailsShown: !!details && !details.hidden,
          onScreen: box.top >= 0 && box.bottom <= window.innerHeight,
        };
      });
      assert.deepStrictEqual(focused, {
        seq: String(first.seq),
        expanded: 'true',
        detailsShown: true,
        onScreen: true,
      });
      await shot('timeline-jump');
    });

    it('the timeline says "not invoked by …" in the same words as the not-wired diagnostic', async () => {
      const labels = await read(TIMELINE, () =>
        Array.from(document.querySelectorAll('.unwired-label')).map((l) => l.innerText),
      );
      assert.ok(labels.length > 0, 'order-pizza fires the unwired points (fire_unwired)');
      assert.strictEqual(new Set(labels).size, 1, JSON.stringify(labels));
      const doc = await h.open(h.ws('hooks/text_hooks.py'), { show: false });
      const [nw] = (await h.waitForOurs(doc.uri, (d) => d.some((x) => h.codeOf(x) === 'not-wired'))).filter(
        (x) => h.codeOf(x) === 'not-wired',
      );
      assert.match(labels[0], /^not invoked by /);
      assert.ok(nw.message.includes(` are ${labels[0]}: `), `${labels[0]} / ${nw.message}`);
    });

    it('clicking a hook name opens its source at the hook', async () => {
      const hook = api
        .hooks()
        .agents.flatMap((a) => a.hooks)
        .find((x) => x.handler === 'guard_orders');
      const file = h.ws('hooks/tool_hooks.py');
      assert.strictEqual(path.resolve(hook.file), file);
      await h.closeAll();
      // Closing the editors closed the panel too: simulate again, then click the name on a collapsed row.
      await vscode.commands.executeCommand(
        'hooksmith.simulateTurn',
        vscode.Uri.file(h.ws('order-pizza.scenario.yaml')),
      );
      const selector = 'li.event > .row a.hooklink[data-hook="hooks/tool_hooks.py::guard_orders"]';
      await e2e.waitFor(
        () => read(TIMELINE, (s) => !!document.querySelector(s), selector).catch(() => false),
        {
          timeout: h.LONG,
          what: 'the guard_orders link in the timeline',
        },
      );
      await e2e.ui({ op: 'click', webview: TIMELINE, selector });
      const ed = await waitForEditorAt(
        file,
        (l) => l === hook.range.start.line,
        'tool_hooks.py at guard_orders',
      );
      assert.match(
        ed.document.lineAt(ed.selection.active.line).text,
        /@modify_tool_call\(\)|def guard_orders/,
      );
      // The row did not toggle: the click was the link's.
      const expanded = await read(
        TIMELINE,
        (s) => document.querySelector(s).closest('.row').getAttribute('aria-expanded'),
        selector,
      );
      assert.strictEqual(expanded, 'false');
    });
  });

  describe('a turn where a hook crashes', () => {
    let dir, file, result;
    const CRASH = h.CRASHING_GUARD;
    before(async function () {
      if (!e2e.canDriveUi()) return this.skip();
      dir = h.scratch('webview-crash-agent');
      file = path.join(dir, 'hooks.py');
      fs.writeFileSync(file, CRASH);
      const scenario = path.join(dir, 'crash.scenario.yaml');
      fs.writeFileSync(
        scenario,
        [
          'name: crash',
          'user: "delete my account"',
          'completions:',
          '  - tool_calls:',
          '      - tool_name: delete_account',
          '        tool_args: {}',
          '  - text: "done"',
          'tools:',
          '  delete_account:',
          '    value: { deleted: true }',
          '',
        ].join('\n'),
      );
      await h.closeAll();
      result = await vscode.commands.executeCommand('hooksmith.simulateTurn', vscode.Uri.file(scenario));
      assert.ok(result, 'a SimulationResult');
      assert.ok(
        result.events.some((e) => e.outcome === 'crashed'),
        JSON.stringify(result.events.map((e) => `${e.point}:${e.outcome}`)),
      );
    });

    it('a traceback line opens its file at its line', async () => {
      await e2e.waitFor(
        () => read(TIMELINE + 'crash', () => !!document.querySelector('#jump-problem')).catch(() => false),
        { timeout: h.LONG, what: 'the crash timeline with its "Jump to first problem"' },
      );
      await e2e.ui({ op: 'click', webview: TIMELINE, selector: '#jump-problem' });
      const frame = 'a.frame[data-file$="/webview-crash-agent/hooks.py"][data-line="5"]';
      await e2e.ui({ op: 'click', webview: TIMELINE, selector: frame });
      await waitForEditorAt(file, (l) => l === 4, 'hooks.py at line 5 (the raising line)');
      await shot('timeline-traceback');
    });

    it('the fallback bubble names its fallback once', async () => {
      const fallback = result.transcript.find((t) => t.fallback);
      assert.ok(fallback, JSON.stringify(result.transcript));
      const bubble = await read(TIMELINE, () => {
        const b = document.querySelector('.msg.is-fallback');
        return b && b.innerText;
      });
      assert.ok(bubble, 'a fallback bubble on screen');
      const times = bubble.split(fallback.fallback).length - 1;
      assert.strictEqual(times, 1, `"${bubble}" names ${fallback.fallback} ${times} times`);
      assert.ok(!/fallback\s*fallback/i.test(bubble.replace(/fallback response/i, '')), bubble);
    });
  });

  describe('the result panel', () => {
    const dir = () => h.ws('editor-webviews');
    before(function () {
      if (!e2e.canDriveUi()) return this.skip();
      fs.mkdirSync(dir(), { recursive: true });
    });
    after(() => fs.rmSync(dir(), { recursive: true, force: true }));

    it('shows the user-visible text and the diff with their leading spaces; "Change" on one line', async () => {
      const file = path.join(dir(), 'text_hooks.py');
      await h.writeFile(
        file,
        'import asyncio\n\nfrom rasa.mantle.hooks import OutgoingTextPayload, ToolCallPayload, modify_outgoing_text, modify_tool_call\n\n\n@modify_outgoing_text()\nasync def shout(payload: OutgoingTextPayload) -> OutgoingTextPayload:\n    return payload.model_copy(update={"text": payload.text.upper()})\n\n\n@modify_tool_call(timeout_ms=50)\nasync def slow(call: ToolCallPayload) -> ToolCallPayload:\n    await asyncio.sleep(1)\n    return call\n',
      );
      await h.closeAll();
      // The hook's file in the editor: the panel opens beside it, at half width, as a person sees it.
      await h.open(file);
      const result = await vscode.commands.executeCommand('hooksmith.runHook', {
        file,
        handler: 'shout',
        payload: {
          ...JSON.parse(fs.readFileSync(h.ws('.hooksmith/payloads/outgoing_text.json'), 'utf8')),
          text: '  your pizza is on its way',
        },
      });
      assert.strictEqual(result.outcome, 'returned');
      const seen = await e2e.waitFor(
        () =>
          read(
            'shout — run',
            () => {
              const q = document.querySelector('blockquote.user-text');
              const row = Array.from(document.querySelectorAll('table.diff tr')).find(
                (tr) => tr.querySelector('td.k') && tr.querySelector('td.k').innerText === 'text',
              );
              const th = Array.from(document.querySelectorAll('table.diff th')).find(
                (t) => t.innerText === 'Change',
              );
              const range = document.createRange();
              if (th) range.selectNodeContents(th);
              return {
                // innerText is the rendered text: collapsed whitespace would show here.
                userText: q && q.innerText,
                before: row && row.cells[1].innerText,
                after: row && row.cells[2].innerText,
                changeLines: th ? range.getClientRects().length : 0,
                panelWidth: window.innerWidth,
                screenWidth: window.screen.width,
              };
            },
            undefined,
            'blockquote.user-text',
          ).catch(() => undefined),
        { timeout: h.LONG, what: 'the shout result in its panel' },
      );
      assert.strictEqual(seen.userText, '  YOUR PIZZA IS ON ITS WAY');
      assert.strictEqual(seen.before, '"  your pizza is on its way"');
      assert.strictEqual(seen.after, '"  YOUR PIZZA IS ON ITS WAY"');
      assert.strictEqual(seen.changeLines, 1, `"Change" wraps at ${seen.panelWidth}px`);
      assert.ok(
        seen.panelWidth < seen.screenWidth * 0.5,
        `the panel is beside the editor: ${JSON.stringify(seen)}`,
      );
      await shot('result-whitespace');
    });

    it('what the user sees is "nothing" or the fallback line when no text reaches them', async () => {
      const file = path.join(dir(), 'silent_hooks.py');
      await h.writeFile(
        file,
        [
          'from rasa.mantle.hooks import ModelResponsePayload, RetryModel, ToolCallPayload, modify_model_response, modify_tool_call',
          '',
          '',
          '@modify_model_response()',
          'async def insist(response: ModelResponsePayload) -> ModelResponsePayload:',
          '    raise RetryModel("cite the hours page")',
          '',
          '',
          '@modify_tool_call()',
          'async def broken(call: ToolCallPayload) -> ToolCallPayload:',
          '    raise KeyError("card_id")',
          '',
        ].join('\n'),
      );
      const userView = (handler) =>
        e2e.waitFor(
          () =>
            read(
              `${handler} — run`,
              () => {
                const q = (sel) => document.querySelector(sel);
                return {
                  text: q('blockquote.user-text') && q('blockquote.user-text').innerText,
                  nothing: q('p.user-nothing') && q('p.user-nothing').innerText,
                  fallback: q('p.user-fallback code') && q('p.user-fallback code').innerText,
                };
              },
              undefined,
              '.user-nothing, .user-fallback',
            ).catch(() => undefined),
          { timeout: h.LONG, what: `the ${handler} result in its panel` },
        );
      const retried = await vscode.commands.executeCommand('hooksmith.runHook', {
        file,
        handler: 'insist',
        payloadFile: h.ws('.hooksmith/payloads/model_response.json'),
      });
      assert.strictEqual(retried.outcome, 'retry-model');
      assert.deepStrictEqual(await userView('insist'), {
        text: null,
        nothing: 'Nothing: the response is discarded and the model asked again',
        fallback: null,
      });
      const crashed = await vscode.commands.executeCommand('hooksmith.runHook', {
        file,
        handler: 'broken',
        payloadFile: h.ws('.hooksmith/payloads/tool_call.json'),
      });
      assert.strictEqual(crashed.outcome, 'crashed');
      const { FALLBACK_RESPONSES } = h.repoModule('runtime/catalogue/mantle-points.ts');
      assert.deepStrictEqual(await userView('broken'), {
        text: null,
        nothing: null,
        fallback: FALLBACK_RESPONSES.tool_call,
      });
      await shot('result-fallback');
    });

    it('a timed-out run: the clock is drawn (no ⏱ glyph), and no diff is shown', async () => {
      const result = await vscode.commands.executeCommand('hooksmith.runHook', {
        file: path.join(dir(), 'text_hooks.py'),
        handler: 'slow',
        payloadFile: h.ws('.hooksmith/payloads/tool_call.json'),
      });
      assert.strictEqual(result.outcome, 'timed-out');
      const seen = await e2e.waitFor(
        () =>
          read(
            'slow — run',
            () => {
              const badge = Array.from(document.querySelectorAll('.badge')).find((b) =>
                /Timed out/.test(b.innerText),
              );
              const svg = badge && badge.querySelector('svg');
              const box = svg && svg.getBoundingClientRect();
              return {
                text: document.body.innerText,
                svg: box ? [Math.round(box.width), Math.round(box.height)] : null,
                diff: !!document.querySelector('table.diff'),
              };
            },
            undefined,
            '.badge',
          ).catch(() => undefined),
        { timeout: h.LONG, what: 'the slow result in its panel' },
      );
      assert.ok(!seen.text.includes('⏱'), 'no ⏱ character on the page');
      assert.deepStrictEqual(seen.svg, [12, 12], 'the clock icon is drawn');
      assert.strictEqual(seen.diff, false);
      assert.match(seen.text, /No diff: the hook timed out/);
      await shot('result-timed-out');
    });

    it('a refused run: each error is a link to its line; no toast is left', async () => {
      // hooks.py: a module the Mantle loader reads, so the engine's load-time check applies.
      const file = path.join(dir(), 'hooks.py');
      await h.writeFile(
        file,
        'from rasa.mantle.hooks import HookRejection, ToolCallPayload, modify_tool_call\n\n\n@modify_tool_call()\ndef refused_guard(call: ToolCallPayload) -> ToolCallPayload:\n    if call.tool_name == "delete_account":\n        raise HookRejection("no deletes")\n    return call\n',
      );
      await h.closeAll();
      const doc = await h.open(file);
      await h.waitForOurs(
        doc.uri,
        (d) => d.filter((x) => x.severity === vscode.DiagnosticSeverity.Error).length === 2,
      );
      const result = await vscode.commands.executeCommand('hooksmith.runHook', {
        file,
        handler: 'refused_guard',
        payloadFile: h.ws('.hooksmith/payloads/tool_call.json'),
      });
      assert.strictEqual(result, undefined);
      const links = await e2e.waitFor(
        () =>
          read(
            'refused_guard — cannot run',
            () => Array.from(document.querySelectorAll('ul.problems a.frame')).map((a) => a.innerText),
            undefined,
            'ul.problems',
          ).catch(() => undefined),
        { timeout: h.LONG, what: 'the refusal in the result panel' },
      );
      assert.strictEqual(links.length, 2, JSON.stringify(links));
      assert.match(links[0], /^editor-webviews\/hooks\.py:5:\d+$/);
      assert.match(links[1], /^editor-webviews\/hooks\.py:7:\d+$/);
      // Where Run would be, the lens says why; no other lens offers to run the hook (Fuzz).
      const lenses = await e2e.waitFor(
        async () => {
          const l = (
            (await vscode.commands.executeCommand('vscode.executeCodeLensProvider', vscode.Uri.file(file))) ||
            []
          ).map((x) => x.command && x.command.title);
          return l.includes('✖ cannot run: 2 errors') ? l : undefined;
        },
        { timeout: h.LONG, what: 'the "✖ cannot run: 2 errors" lens' },
      );
      assert.ok(!lenses.includes('Fuzz hook') && !lenses.includes('▶ Run hook'), JSON.stringify(lenses));
      await e2e.ui({
        op: 'click',
        webview: 'refused_guard — cannot run',
        selector: 'a.frame[data-line="7"]',
      });
      await waitForEditorAt(file, (l) => l === 6, 'hooks.py at line 7');
      const toasts = await e2e.ui({
        op: 'eval',
        fn: String(() =>
          Array.from(document.querySelectorAll('.notification-toast')).map((t) => t.innerText),
        ),
      });
      assert.ok(!toasts.some((t) => /hooksmith|cannot run|refuse/i.test(t)), JSON.stringify(toasts));
      // The output channel names the same places as the panel, not the CLI's ../../tmp/… paths.
      const logged = api
        .logLines()
        .filter((l) => /\[run\] refused_guard: /.test(l))
        .pop();
      assert.ok(logged, api.logLines().slice(-5).join('\n'));
      assert.match(logged, /\n {2}editor-webviews\/hooks\.py:5:\d+: error sync-handler: /);
      assert.ok(!logged.includes('../'), logged);
      await shot('refused-link');
    });
  });
});
