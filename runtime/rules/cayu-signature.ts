// A phase method takes `self, context`; an annotated context must be the phase's context type.
import type { HookDiagnostic } from './diagnostics';
import { cayuOrBareName, contextParameter, phaseMethods } from './cayu-common';
import type { Rule } from './rule';
import { reportMessage } from './util/diagnostic';
import { spellCayuName } from './util/cayu-import-fix';

const CODE = 'cayu-signature';

export const cayuSignature: Rule = {
  code: CODE,
  engine: 'cayu',
  severity: 'error',
  title: "A phase method takes `self, context` with the phase's context type",
  docs: {
    what: "A `RuntimeHook` phase method without exactly one required context parameter after `self`, or whose context annotation names another type than the phase's context (`BeforeToolCallHookContext`, `ToolCallHookContext`, `RuntimeHookContext`).",
    why: 'The runtime calls each phase with one context object. A missing or extra required parameter raises TypeError on every call; a wrong annotation means the hook reads fields its context does not have (e.g. `result` before the tool ran).',
    spec: '"async RuntimeHook.before_tool_call(context: BeforeToolCallHookContext)", "async RuntimeHook.after_tool_call(context: ToolCallHookContext)", "async RuntimeHook.after_session_completed(context: RuntimeHookContext)" (spec/cayu-runtime-hooks.md, RuntimeHook).',
    fix: 'Declare `async def after_tool_call(self, context: ToolCallHookContext)`; the quick fix corrects the annotation.',
    example: {
      bad: `from cayu.observability import AfterToolCallDecision, BeforeToolCallHookContext, RuntimeHook


class Audit(RuntimeHook):
    async def after_tool_call(self, context: BeforeToolCallHookContext) -> AfterToolCallDecision | None:
        return None
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
    noContext: '{{method}} takes no context parameter: the runtime calls it as {{call}}',
    extraParameter:
      "{{method}} has an extra required parameter '{{parameter}}': the runtime passes only the context",
    keywordOnlyParameter:
      "{{method}} has a required keyword-only parameter '{{parameter}}': the runtime passes only the context",
    wrongContext: "the context of {{name}} is a {{context}}, not '{{annotation}}'",
  },
  check(ctx) {
    const { module, text } = ctx;
    const out: HookDiagnostic[] = [];
    const report = (
      id: string,
      data: Record<string, string>,
      range: HookDiagnostic['range'],
      fixes?: HookDiagnostic['fixes'],
    ) => out.push(reportMessage(this, ctx, range, id, data, fixes ? { fixes } : {}));
    for (const { cls, method, phase } of phaseMethods(module)) {
      const where = `${cls.name}.${method.name}`;
      const positional = method.parameters.filter(
        (p) => p.kind === 'positional' || p.kind === 'positional-only',
      );
      const hasVarPositional = method.parameters.some((p) => p.kind === 'var-positional');
      const context = contextParameter(method);
      if (!context && !hasVarPositional) {
        report('noContext', { method: where, call: `${method.name}(context)` }, method.parametersRange);
        continue;
      }
      for (const extra of positional.slice(2)) {
        if (!extra.hasDefault)
          report('extraParameter', { method: where, parameter: extra.name }, extra.nameRange);
      }
      for (const kw of method.parameters.filter((p) => p.kind === 'keyword-only' && !p.hasDefault)) {
        report('keywordOnlyParameter', { method: where, parameter: kw.name }, kw.nameRange);
      }
      const ann = context?.annotation;
      if (!ann) continue;
      const name = cayuOrBareName(ann.optionalOf ?? ann.ref);
      if (name === phase.context || name === 'Any') continue;
      // String annotations keep their quotes; only plain ones get the mechanical fix.
      const spelled = ann.isString ? undefined : spellCayuName(module, text, phase.context);
      const fixes = spelled && [
        {
          title: `Annotate as ${phase.context}`,
          edits: [...spelled.importEdits, { range: ann.range, newText: spelled.text }],
          isPreferred: true,
        },
      ];
      const data = { name: method.name, context: phase.context, annotation: ann.text };
      report('wrongContext', data, ann.range, fixes);
    }
    return out;
  },
};
