// cayu-phase-return: a tool-call phase returning something that is not a decision or None. The
// runtime checks the type of what before_tool_call / after_tool_call return and raises TypeError
// otherwise (catalogue: CAYU_DECISION_PHASES); the hook is recorded as failed (fail-open).
import { CAYU_DECISION_PHASES } from '../catalogue';
import type { HookDiagnostic } from './diagnostics';
import { contextParameter, failureConsequence, phaseMethods } from './cayu-common';
import type { FunctionDef, LiteralValue, ReturnFacts } from '../python/model';
import type { Rule } from './rule';
import { fix, q, reportMessage } from './util/diagnostic';
import { boundOnlyTo } from './util/aliases';

const CODE = 'cayu-phase-return';

/** Expression types that are never a decision. */
const NOT_DECISION_NODES: Readonly<Record<string, string>> = {
  string: 'a str',
  concatenated_string: 'a str',
  integer: 'an int',
  float: 'a float',
  true: 'a bool',
  false: 'a bool',
  dictionary: 'a dict',
  dictionary_comprehension: 'a dict',
  list: 'a list',
  list_comprehension: 'a list',
  tuple: 'a tuple',
  set: 'a set',
  set_comprehension: 'a set',
};

/** Builtins whose call makes a value that is never a decision (when the name is not imported). */
const NOT_DECISION_CALLS: Readonly<Record<string, string>> = {
  dict: 'a dict',
  str: 'a str',
  list: 'a list',
  tuple: 'a tuple',
  set: 'a set',
  int: 'an int',
  float: 'a float',
  bool: 'a bool',
};

/** What a returned value is, when it is certainly no decision; undefined when it may be one. */
function notDecision(
  v: { nodeType?: string; literal?: LiteralValue; text: string; callee?: string; calleeImported?: boolean },
  ctx: string | undefined,
): string | undefined {
  if (v.nodeType && NOT_DECISION_NODES[v.nodeType]) return NOT_DECISION_NODES[v.nodeType];
  if (v.nodeType === 'unary_operator' && v.literal?.kind === 'number') return 'a number';
  if (v.nodeType === 'call' && v.callee && !v.calleeImported) return NOT_DECISION_CALLS[v.callee];
  if (ctx && v.text === `${ctx}.result`) return 'the ToolResult (not a decision about it)';
  if (ctx && v.text === `${ctx}.arguments`) return 'the arguments dict';
  return undefined;
}

function returnedKind(r: ReturnFacts, method: FunctionDef, ctx: string | undefined): string | undefined {
  const v = r.value;
  if (!v || r.returnsNone) return undefined;
  const call = v.call;
  const direct = notDecision(
    {
      text: v.text.replace(/\s+/g, ''),
      ...(v.nodeType ? { nodeType: v.nodeType } : {}),
      ...(v.literal ? { literal: v.literal } : {}),
      ...(call ? { callee: call.callee.text, calleeImported: call.callee.qualified !== undefined } : {}),
    },
    ctx,
  );
  if (direct || v.nodeType !== 'identifier') return direct;
  // `result = {"action": "pass_through"}; return result`: every binding of the name is such a value.
  let kind: string | undefined;
  const only = boundOnlyTo(method.body, v.text, (b) => {
    const k = notDecision(b, ctx);
    kind ??= k;
    return k !== undefined && b.callee === undefined;
  });
  return only ? kind : undefined;
}

/** `return {"action": "proceed"}` / `"pass_through"`: the intended no-op is `return None`. */
function meansNoChange(r: ReturnFacts): boolean {
  const lit = r.value?.literal;
  if (lit?.kind !== 'dict') return false;
  const action = lit.entries.find((e) => e.key === 'action')?.value;
  return (
    lit.entries.length === 1 &&
    action?.kind === 'string' &&
    (action.value === 'proceed' || action.value === 'pass_through')
  );
}

export const cayuPhaseReturn: Rule = {
  code: CODE,
  engine: 'cayu',
  severity: 'error',
  title: 'A tool-call phase returns something that is not a decision or None',
  docs: {
    what: '`before_tool_call` or `after_tool_call` returning a value that can never be its decision: a string, number, dict (`{"action": "pass_through"}`), list, tuple or set literal, a `dict(…)` / `str(…)` call, `context.result` or `context.arguments`, directly or through a local name bound only to such a value. Annotated or not.',
    why: 'The runtime checks the type of what the phase returns: anything but `BeforeToolCallDecision` / `AfterToolCallDecision` or `None` raises TypeError ("before_tool_call must return a BeforeToolCallDecision or None.", cayu 0.15 `runtime/_tool_invocation/hooks.py:79-80,120-121`). The hook is recorded as failed and the call goes on as if it were absent: a guard written this way never guards. The engine\'s own test `test_invalid_after_tool_call_decision_fails_even_when_observe_only` asserts it.',
    spec: 'spec/cayu-runtime-hooks.md, BeforeToolCallDecision: "Returning None from the hook equals proceed."; DESIGN.md: "a hook that raises an `Exception` (or returns the wrong type, or is a sync method) is recorded as failed and the loop goes on".',
    fix: 'Return the decision model (`BeforeToolCallDecision(action="block", block_reason="…")`, `AfterToolCallDecision(action="modify", modified_result=ToolResult(…))`) or `None` for no change. The quick fix turns `return {"action": "proceed"}` / `{"action": "pass_through"}` into `return None`.',
    example: {
      bad: `from cayu.observability import AfterToolCallDecision, RuntimeHook, ToolCallHookContext


class Audit(RuntimeHook):
    async def after_tool_call(self, context: ToolCallHookContext) -> AfterToolCallDecision | None:
        return {"action": "pass_through"}
`,
      good: `from cayu.observability import AfterToolCallDecision, RuntimeHook, ToolCallHookContext


class Audit(RuntimeHook):
    async def after_tool_call(self, context: ToolCallHookContext) -> AfterToolCallDecision | None:
        return None
`,
      file: 'runtime_hooks.py',
    },
  },
  fixable: true,
  messages: {
    wrongReturn:
      '{{method}} returns {{kind}}: it must return {{decision}} or `None`. The runtime raises TypeError and {{consequence}}.',
  },
  check(ctx) {
    const out: HookDiagnostic[] = [];
    for (const { method, phase } of phaseMethods(ctx.module)) {
      const decision = CAYU_DECISION_PHASES[phase.id];
      if (!decision) continue;
      const contextName = contextParameter(method)?.name;
      for (const r of method.body.returns) {
        const kind = returnedKind(r, method, contextName);
        if (!kind || !r.value) continue;
        const fixes = meansNoChange(r)
          ? [fix('Return None (no change)', [{ range: r.value.range, newText: 'None' }], true)]
          : [];
        out.push(
          reportMessage(
            this,
            ctx,
            r.value.range,
            'wrongReturn',
            { method: method.name, kind, decision: q(decision), consequence: failureConsequence(phase.id) },
            { fixes },
          ),
        );
      }
    }
    return out;
  },
};
