// Decision constructor calls the runtime's Pydantic models reject (extra="forbid" plus a
// validator tying each companion field to its action), and decisions of the wrong kind.
import { CAYU_DECISIONS, type CayuDecision } from '../catalogue';
import type { HookDiagnostic } from './diagnostics';
import type { CallFacts, Range } from '../python/model';
import { CAYU_ROOTS, cayuName, closest, isTestCode, phaseMethods, type PhaseMethod } from './cayu-common';
import type { Rule } from './rule';
import { orList, q, reportMessage } from './util/diagnostic';
import { allFunctions, importsAnyRoot } from '../python/module-facts';

function capital(text: string): string {
  return text[0]!.toUpperCase() + text.slice(1);
}

const CODE = 'cayu-decision-fields';

function decisionOf(call: CallFacts): CayuDecision | undefined {
  const name = cayuName(call.callee);
  return name ? CAYU_DECISIONS.find((d) => d.name === name) : undefined;
}

/** What every rejected decision leads to, said once (the Mantle messages end with the consequence too). */
const REJECTED =
  'constructing it raises ValidationError inside the hook: the runtime logs the failure and goes on as if the hook returned None (a guard lets the call run unguarded)';

/** Reports message `id` of the rule with its data at a range. */
type Report = (id: string, data: Record<string, string>, range: Range) => void;

function checkCall(call: CallFacts, d: CayuDecision, report: Report): void {
  const actions = d.actions.map((a) => a.action);
  for (const p of call.positional) {
    report('positionalArgument', { decision: q(d.name) }, p.range);
  }
  for (const kw of call.keywords) {
    if (kw.name === 'action' || kw.name in d.fields) continue;
    const guess = closest(kw.name, ['action', ...Object.keys(d.fields)], 3);
    const data = { decision: q(d.name), field: q(kw.name) };
    if (guess) report('unknownFieldGuess', { ...data, guess: q(guess) }, kw.nameRange);
    else report('unknownField', data, kw.nameRange);
  }
  const actionKw = call.keywords.find((k) => k.name === 'action');
  if (!actionKw) {
    if (!call.hasStarArgs && call.positional.length === 0)
      report(
        'missingAction',
        { decision: q(d.name), actions: orList(actions.map((a) => q(a))) },
        call.callee.range,
      );
    return;
  }
  if (actionKw.value.kind !== 'string') return; // computed action: nothing more is known
  const actionName = actionKw.value.value;
  const action = d.actions.find((a) => a.action === actionName);
  if (!action) {
    const guess = closest(actionName, actions, 4);
    const data = { action: q(actionName), decision: q(d.name), actions: orList(actions.map((a) => q(a))) };
    if (guess) report('unknownActionGuess', { ...data, guess: q(guess) }, actionKw.valueRange);
    else report('unknownAction', data, actionKw.valueRange);
    return;
  }
  for (const kw of call.keywords) {
    if (!(kw.name in d.fields) || kw.name === action.companion || kw.value.kind === 'none') continue;
    const owner = d.actions.find((a) => a.companion === kw.name);
    const data = {
      field: q(kw.name),
      owner: q(`action="${owner?.action ?? '?'}"`),
      action: q(`"${actionName}"`),
    };
    report('fieldOfOtherAction', data, kw.nameRange);
  }
  if (!action.companion) return;
  const companion = call.keywords.find((k) => k.name === action.companion);
  if (!companion || companion.value.kind === 'none') {
    if (!companion && call.hasStarArgs) return;
    const data = { action: q(`action="${actionName}"`), companion: q(action.companion) };
    report('missingCompanion', data, companion ? companion.valueRange : actionKw.valueRange);
    return;
  }
  if (
    action.companion === 'block_reason' &&
    companion.value.kind === 'string' &&
    companion.value.value.trim() === ''
  ) {
    report('blankBlockReason', {}, companion.valueRange);
  }
}

function wrongKind(pm: PhaseMethod, report: Report): void {
  for (const call of pm.method.body.calls) {
    const d = decisionOf(call);
    if (!d || d.name === pm.phase.decision) continue;
    const want = pm.phase.decision ? `a ${q(pm.phase.decision)} or ${q('None')}` : q('None');
    const data = { phase: q(pm.phase.id), wanted: want, decision: q(d.name), owner: q(d.phase) };
    report('wrongKind', data, call.callee.range);
  }
}

export const cayuDecisionFields: Rule = {
  code: CODE,
  engine: 'cayu',
  severity: 'error',
  title: 'A Cayu decision the runtime rejects',
  docs: {
    what: 'A `BeforeToolCallDecision` / `AfterToolCallDecision` constructed with an action that does not exist; an action without its companion field (`proceed_modified` needs `modified_arguments`, `short_circuit` needs `synthetic_result`, `block` needs a non-blank `block_reason`, `modify` needs `modified_result`); a companion field given with another action; an unknown keyword; or a decision of the wrong kind for the phase (e.g. an `AfterToolCallDecision` in `before_tool_call`).',
    why: 'Decisions are Pydantic models with `extra="forbid"` and a validator: an invalid one raises ValidationError inside the hook, the runtime records the hook as failed and carries on without it (fail-open), so the decision the author meant is never applied — a guard meant to block lets the call run unguarded.',
    spec: '"proceed runs the tool unchanged; proceed_modified runs it with modified_arguments; short_circuit skips the tool and uses synthetic_result; block skips the tool and returns an error result carrying block_reason." (spec/cayu-runtime-hooks.md, BeforeToolCallDecision); "`block` requires a non-blank `block_reason`, and each of those three fields is only valid with its own action" (DESIGN.md, Cayu facts).',
    fix: 'Pair each action with its own field: `BeforeToolCallDecision(action="block", block_reason="refunds need a ticket id")`, `AfterToolCallDecision(action="modify", modified_result=ToolResult(content="…"))`.',
    example: {
      bad: `from cayu.observability import BeforeToolCallDecision, BeforeToolCallHookContext, RuntimeHook


class Guard(RuntimeHook):
    async def before_tool_call(self, context: BeforeToolCallHookContext) -> BeforeToolCallDecision | None:
        if context.tool_name == "delete_account":
            return BeforeToolCallDecision(action="block")
        return None
`,
      good: `from cayu.observability import BeforeToolCallDecision, BeforeToolCallHookContext, RuntimeHook


class Guard(RuntimeHook):
    async def before_tool_call(self, context: BeforeToolCallHookContext) -> BeforeToolCallDecision | None:
        if context.tool_name == "delete_account":
            return BeforeToolCallDecision(action="block", block_reason="Account deletion needs a human agent.")
        return None
`,
      file: 'runtime_hooks.py',
    },
  },
  fixable: false,
  messages: {
    positionalArgument: `{{decision}} takes keyword arguments only (it is a Pydantic model): ${REJECTED}.`,
    unknownField: `{{decision}} has no field {{field}} Extra fields are forbidden: ${REJECTED}.`,
    unknownFieldGuess: `{{decision}} has no field {{field}}; did you mean {{guess}}? Extra fields are forbidden: ${REJECTED}.`,
    missingAction: `{{decision}} needs an \`action\`: one of {{actions}}. Without it ${REJECTED}.`,
    unknownAction: `{{action}} is not a {{decision}} action ({{actions}}) ${capital(REJECTED)}.`,
    unknownActionGuess: `{{action}} is not a {{decision}} action ({{actions}}); did you mean {{guess}}? ${capital(REJECTED)}.`,
    fieldOfOtherAction: `{{field}} is only valid with {{owner}}, not {{action}}: ${REJECTED}.`,
    missingCompanion: `{{action}} requires {{companion}}: ${REJECTED}.`,
    blankBlockReason: `\`block_reason\` must not be blank: it is the error the model sees, and ${REJECTED}.`,
    wrongKind:
      '{{phase}} returns {{wanted}}; {{decision}} belongs to {{owner}}, so the runtime rejects this decision here.',
  },
  check(ctx) {
    const { module } = ctx;
    const out: HookDiagnostic[] = [];
    const report: Report = (id, data, range) => out.push(reportMessage(this, ctx, range, id, data));
    // Decisions are Cayu names: a module that imports nothing from Cayu names none (nor has phases).
    if (!importsAnyRoot(module, CAYU_ROOTS)) return out;
    for (const fn of allFunctions(module)) {
      const inTest = isTestCode(module.path, fn.name);
      for (const call of fn.body.calls) {
        // A test building a bad decision on purpose (under pytest.raises) is no hook's error;
        // a hook a test defines is still a hook (cayu's own tests build them in factories).
        if (inTest && call.expectedFailure) continue;
        const d = decisionOf(call);
        if (d) checkCall(call, d, report);
      }
    }
    for (const pm of phaseMethods(module)) wrongKind(pm, report);
    return out;
  },
};
