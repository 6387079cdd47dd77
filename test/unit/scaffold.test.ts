// runtime/scaffold/scaffold.ts: import merging that keeps the file's style, hook placement, Cayu
// method/class insertion, the snippet expander — and every scaffolded file analysed by the
// real parser + rules with no error or warning.
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import fc from 'fast-check';
import { analyseModule } from '../../runtime/analysis';
import { parseModule } from '../../runtime/analysis';
import { HOOK_DECORATORS, findCayuPhase, findDecorator } from '../../runtime/catalogue';
import { initParser } from '../../runtime/python';
import {
  applyEdits,
  cayuClassTemplate,
  expandSnippet,
  mantleTemplate,
  modifyHooksInText,
  newModuleText,
  planCayuHook,
  planMantleHook,
  runtimeHookClasses,
  scaffoldTargets,
  type InsertionPlan,
} from '../../runtime/scaffold/scaffold';
import { snippetAtLineStart } from '../../runtime/scaffold/line-start';

/** The file after the plan, placeholders at their defaults. */
function apply(text: string, plan: InsertionPlan): string {
  const after = applyEdits(text, plan.importEdits);
  return applyEdits(after, [
    { range: { start: plan.position, end: plan.position }, newText: expandSnippet(plan.snippet) },
  ]);
}

function serious(text: string, path = '/agent/hooks.py', isMantleModule = true): string[] {
  const module = parseModule(text, path);
  return analyseModule({ path, text, module, agentModules: [module], isMantleModule })
    .filter((d) => d.severity === 'error' || d.severity === 'warning')
    .map((d) => `${d.code} @${d.range.start.line + 1}: ${d.message}`);
}

const M = 'rasa.mantle.hooks';

describe('planMantleHook', () => {
  before(() => initParser());

  it('fills an empty file with the import and the hook, no diagnostics', () => {
    const out = apply('', planMantleHook('', 0, findDecorator('modify_tool_call')!));
    assert.equal(
      out,
      `from ${M} import ToolCallPayload, modify_tool_call\n\n\n@modify_tool_call()\nasync def rewrite_tool_call(payload: ToolCallPayload) -> ToolCallPayload:\n` +
        `    # May change: tool_name, arguments (payload.model_copy(update={...})).\n` +
        `    # Signals: raise RetryModel(...). Crash/timeout (500 ms): fail-closed.\n    return payload\n`,
    );
    assert.deepEqual(serious(out), []);
  });

  it('never splits a function: a cursor inside one inserts after it, with PEP 8 spacing', () => {
    const text = `from ${M} import ToolCallPayload, on_tool_call\n\n\n@on_tool_call()\nasync def a(payload: ToolCallPayload) -> None:\n    x = (\n        1\n    )\n    return None\n\n\nY = 2\n`;
    const out = apply(text, planMantleHook(text, 6, findDecorator('on_tool_call')!));
    assert.match(out, / {4}return None\n\n\n@on_tool_call\(\)\nasync def audit_tool_call\(/);
    assert.match(out, /return None\n\n\nY = 2\n$/);
    assert.deepEqual(serious(out), []);
  });

  it('puts the hook below the imports when the cursor is above them', () => {
    const text = `"""Doc."""\nimport os\nfrom ${M} import on_turn_started\n`;
    const out = apply(text, planMantleHook(text, 0, findDecorator('on_turn_finished')!));
    assert.ok(out.indexOf('@on_turn_finished()') > out.indexOf(`from ${M}`), out);
    assert.match(
      out,
      new RegExp(
        `from ${M.replace(/\./g, '\\.')} import TurnFinishedPayload, on_turn_finished, on_turn_started\n`,
      ),
    );
    assert.deepEqual(serious(out), []);
  });

  it('picks a fresh function name when the default is taken', () => {
    const first = apply('', planMantleHook('', 0, findDecorator('on_tool_result')!));
    const second = apply(first, planMantleHook(first, 99, findDecorator('on_tool_result')!));
    assert.match(second, /async def audit_tool_result_2\(/);
    assert.deepEqual(serious(second), []);
  });

  it('every decorator, scaffolded one after another into the same file, stays clean', () => {
    let text = '"""All hooks."""\n';
    for (const d of HOOK_DECORATORS) text = apply(text, planMantleHook(text, text.split('\n').length, d));
    // One modify hook per point: the file holds 8 modify and 10 observe hooks, all distinct.
    assert.equal((text.match(/^@/gm) ?? []).length, 18);
    assert.deepEqual(serious(text), []);
  });

  // #31 item 1: VS Code re-indents a snippet to the whitespace before it on its line; appended after
  // a snippet's indented `return None` (no newline at the end), the hook went inside that function.
  it('the snippet starts at column 0 of its own line, also when appending after an indented last line', () => {
    const text = '@on_turn_started()\nasync def a(payload: TurnStartedPayload) -> None:\n    return None';
    const plan = planMantleHook(text, 1, findDecorator('on_turn_finished')!);
    const at = snippetAtLineStart(plan);
    assert.equal(at.position.character, 0);
    const after = applyEdits(text, plan.importEdits);
    assert.deepEqual(at.lineBreak, {
      line: after.split('\n').length - 1,
      character: '    return None'.length,
    });
    const broken = applyEdits(after, [
      { range: { start: at.lineBreak!, end: at.lineBreak! }, newText: '\n' },
    ]);
    const out = applyEdits(broken, [
      { range: { start: at.position, end: at.position }, newText: expandSnippet(at.snippet) },
    ]);
    assert.equal(out, apply(text, plan));
    assert.match(out, /^@on_turn_finished\(\)$/m);
  });

  it('finds the modify hooks a file already registers (for the duplicate warning)', () => {
    const text = `import rasa.mantle.hooks as mh\n\n@mh.modify_tool_call()\nasync def a(p): ...\n\n@on_tool_call()\nasync def b(p): ...\n`;
    assert.deepEqual(modifyHooksInText(text, findDecorator('modify_tool_call')!), [2]);
    assert.deepEqual(modifyHooksInText(text, findDecorator('on_tool_call')!), []);
  });

  it('never throws on arbitrary text and always yields an insertion inside the file', () => {
    const alphabet = fc.constantFrom(
      '\n',
      ' ',
      '(',
      ')',
      '"',
      "'",
      '"""',
      '#',
      '\\',
      'from x import (a,',
      'class A(RuntimeHook):',
      '    def f():',
      '@x',
      'import os',
      'a',
    );
    fc.assert(
      fc.property(fc.array(alphabet, { maxLength: 40 }), fc.nat(50), (parts, cursor) => {
        const text = parts.join('');
        const plan = planMantleHook(text, cursor, findDecorator('modify_model_request')!);
        const after = applyEdits(text, plan.importEdits);
        assert.ok(plan.position.line <= after.split('\n').length);
        assert.equal(snippetAtLineStart(plan).position.character, 0);
        const c = planCayuHook(text, cursor, findCayuPhase('before_tool_call')!);
        assert.ok(
          c.kind === 'exists' || c.position.line <= applyEdits(text, c.importEdits).split('\n').length,
        );
      }),
      { numRuns: 300, seed: Number(process.env.HOOKSMITH_FUZZ_SEED ?? 20261130) },
    );
  });
});

describe('planCayuHook', () => {
  before(() => initParser());
  const cayuFile = '/agent/audit.py';

  it('adds a RuntimeHook subclass with its imports when the cursor is in no hook class', () => {
    const plan = planCayuHook('', 0, findCayuPhase('before_tool_call')!);
    assert.equal(plan.kind, 'class');
    const out = apply('', plan as InsertionPlan);
    // 91 columns on one line: wrapped the way black would.
    assert.match(
      out,
      /^from cayu\.observability import \(\n {4}BeforeToolCallDecision,\n {4}BeforeToolCallHookContext,\n {4}RuntimeHook,\n\)\n/,
    );
    assert.match(
      out,
      /class BeforeToolCallHook\(RuntimeHook\):\n {4}async def before_tool_call\(\n {8}self, context: BeforeToolCallHookContext\n {4}\) -> BeforeToolCallDecision \| None:\n/,
    );
    assert.deepEqual(serious(out, cayuFile, false), []);
  });

  it('adds a method to the RuntimeHook subclass under the cursor, imports merged', () => {
    const text =
      'from cayu import RuntimeHook, BeforeToolCallHookContext\n\n\nclass Audit(RuntimeHook):\n    async def before_tool_call(self, context: BeforeToolCallHookContext) -> None:\n        return None\n\n\nX = 1\n';
    const plan = planCayuHook(text, 4, findCayuPhase('after_tool_call')!);
    assert.equal(plan.kind, 'method');
    const out = apply(text, plan as InsertionPlan);
    // New names are appended (sorted among themselves); the user's line is neither re-sorted nor re-wrapped.
    assert.match(
      out,
      /^from cayu import \(\n {4}AfterToolCallDecision,\n {4}BeforeToolCallHookContext,\n {4}RuntimeHook,\n {4}ToolCallHookContext,\n\)\n/,
    );
    assert.match(
      out,
      / {8}return None\n\n {4}async def after_tool_call\(\n {8}self, context: ToolCallHookContext\n {4}\) -> AfterToolCallDecision \| None:\n/,
    );
    assert.equal(runtimeHookClasses(out)[0]!.methods.join(','), 'before_tool_call,after_tool_call');
    assert.deepEqual(serious(out, cayuFile, false), []);
  });

  it('finds subclasses of subclasses and says when the phase is already overridden', () => {
    const text =
      'from cayu.observability import RuntimeHook\n\nclass Base(RuntimeHook):\n    pass\n\nclass Mine(Base):\n    async def after_session_failed(self, context) -> None:\n        return None\n';
    assert.deepEqual(
      runtimeHookClasses(text).map((c) => c.name),
      ['Base', 'Mine'],
    );
    assert.deepEqual(planCayuHook(text, 6, findCayuPhase('after_session_failed')!), {
      kind: 'exists',
      className: 'Mine',
      line: 6,
    });
    const plan = planCayuHook(text, 7, findCayuPhase('after_session_completed')!);
    assert.equal(plan.kind, 'method');
    const out = apply(text, plan as InsertionPlan);
    assert.match(
      out,
      /return None\n\n {4}async def after_session_completed\(self, context: RuntimeHookContext\) -> None:\n {8}# .*\n {8}return None\n$/,
    );
  });
});

describe('templates and the snippet expander', () => {
  before(() => initParser());

  it('expands placeholders, variables, choices, nesting and escapes', () => {
    assert.equal(expandSnippet('a ${1:name} $2 b $0'), 'a name  b ');
    assert.equal(expandSnippet('${TM_FILENAME} ${TM_SELECTED_TEXT:sel} ${1|one,two|}'), ' sel one');
    assert.equal(expandSnippet('${1:outer ${2:inner}}'), 'outer inner');
    assert.equal(expandSnippet('\\$x \\} \\\\'), '$x } \\');
  });

  it('lists 18 Mantle targets and 5 Cayu phases', () => {
    const t = scaffoldTargets();
    assert.equal(t.filter((x) => x.engine === 'mantle').length, 18);
    assert.equal(t.filter((x) => x.engine === 'cayu').length, 5);
  });

  it('a new module for every target analyses clean', () => {
    for (const d of HOOK_DECORATORS)
      assert.deepEqual(serious(expandSnippet(newModuleText(mantleTemplate(d), 'Doc.'))), [], d.name);
    for (const t of scaffoldTargets()) {
      if (t.engine !== 'cayu') continue;
      assert.deepEqual(
        serious(expandSnippet(newModuleText(cayuClassTemplate([t.phase]), 'Doc.')), '/agent/x.py', false),
        [],
        t.phase.id,
      );
    }
  });
});

describe('line endings', () => {
  before(() => initParser());
  it('merges into a CRLF file at the right place', () => {
    const text = `from ${M} import on_tool_call\r\n\r\nx = 1\r\n`;
    const plan = planMantleHook(text, 2, findDecorator('on_tool_call')!);
    const after = apply(text, plan);
    assert.ok(
      after.startsWith(`from ${M} import ToolCallPayload, on_tool_call\r\n\r\nx = 1\r\n`),
      JSON.stringify(after),
    );
    assert.match(after, /@on_tool_call\(\)\nasync def audit_tool_call_?\d*\(/);
  });
});
