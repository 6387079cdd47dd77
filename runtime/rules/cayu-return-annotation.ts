// The return annotation of a phase method must match what the runtime accepts from it.
import type { Annotation } from '../python/model';
import type { HookDiagnostic } from './diagnostics';
import { cayuOrBareName, phaseMethods } from './cayu-common';
import type { Rule } from './rule';
import { spellCayuName } from './util/cayu-import-fix';
import { fix, reportMessage } from './util/diagnostic';

const CODE = 'cayu-return-annotation';

/** What the phase may be annotated to return: None, its decision, or `Decision | None`. */
function accepted(ann: Annotation, decision: string | undefined): boolean {
  if (ann.isNone) return true;
  if (!decision) return false;
  const name = cayuOrBareName(ann.optionalOf ?? ann.ref);
  return name === decision;
}

export const cayuReturnAnnotation: Rule = {
  code: CODE,
  engine: 'cayu',
  severity: 'error',
  title: 'A phase method returns its decision type or None',
  docs: {
    what: 'A phase method annotated to return something the runtime does not accept: `before_tool_call` returns `BeforeToolCallDecision | None`, `after_tool_call` returns `AfterToolCallDecision | None`, the `after_session_*` phases return `None`. `Optional[...]` forms are accepted.',
    why: 'The annotation documents what the hook hands back; a mismatch (e.g. `-> AfterToolCallDecision` on `before_tool_call`, or `-> dict`) means the method returns a value the runtime rejects or ignores.',
    spec: '"async RuntimeHook.before_tool_call(context: BeforeToolCallHookContext) -> BeforeToolCallDecision | None", "async RuntimeHook.after_tool_call(context: ToolCallHookContext) -> AfterToolCallDecision | None", "async RuntimeHook.after_session_completed(context: RuntimeHookContext) -> None" (spec/cayu-runtime-hooks.md, RuntimeHook).',
    fix: 'Annotate `-> BeforeToolCallDecision | None` (before_tool_call), `-> AfterToolCallDecision | None` (after_tool_call) or `-> None` (after_session_*).',
    example: {
      bad: `from cayu.observability import BeforeToolCallDecision, BeforeToolCallHookContext, RuntimeHook


class Guard(RuntimeHook):
    async def before_tool_call(self, context: BeforeToolCallHookContext) -> bool:
        return context.tool_name != "delete_account"
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
  fixable: true,
  messages: {
    wrongReturn: "{{method}} must return {{wanted}}, not '{{annotation}}'",
  },
  check(ctx) {
    const { module, text } = ctx;
    const out: HookDiagnostic[] = [];
    for (const { cls, method, phase } of phaseMethods(module)) {
      const ann = method.returnAnnotation;
      if (!ann || accepted(ann, phase.decision)) continue;
      const want = phase.decision ? `${phase.decision} | None` : 'None';
      const spelled =
        phase.decision && !ann.isString ? spellCayuName(module, text, phase.decision) : undefined;
      const written = spelled ? `${spelled.text} | None` : want;
      const edits = [...(spelled?.importEdits ?? []), { range: ann.range, newText: written }];
      const data = { method: `${cls.name}.${method.name}`, wanted: want, annotation: ann.text };
      out.push(
        reportMessage(this, ctx, ann.range, 'wrongReturn', data, {
          fixes: ann.isString ? [] : [fix(`Annotate -> ${want}`, edits, true)],
        }),
      );
    }
    return out;
  },
};
