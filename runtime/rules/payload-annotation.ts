// payload-annotation: the payload parameter is not annotated with the point's payload type.
import type { HookDiagnostic } from './diagnostics';
import type { Rule } from './rule';
import { fix, q, reportMessage } from './util/diagnostic';
import {
  annotationTarget,
  NOT_IMPORTED_MESSAGE,
  notImportedReport,
  replaceAnnotationEdits,
} from './util/annotations';
import { payloadParameter } from '../python/hooks';
import { checkHooks, cleanHooksBit, type CleanHooks } from './util/clean-hooks';
import { spellMantleName } from './util/mantle-import-fix';
import { isMantleMember } from '../python/names';

/** Hooks found clean on their own facts (util/clean-hooks.ts). */
const clean: CleanHooks = cleanHooksBit();

export const payloadAnnotation: Rule = {
  code: 'payload-annotation',
  engine: 'mantle',
  severity: 'error',
  title: "The payload parameter must be annotated with the point's payload type",
  docs: {
    what: "A hook whose payload parameter has no annotation, or one that is not the point's payload type (e.g. `ToolResultPayload` on `modify_tool_call`, `dict`, `Optional[ToolCallPayload]`). Names are resolved through the module's imports, aliases (`as P`, `mh.ToolCallPayload`), string annotations and `from __future__ import annotations`. A payload type used by its bare name without any import is reported here too (the module would fail to load); the fix adds the import.",
    why: 'The engine validates payload type annotations at `rasa train` and model load; a missing or mismatched annotation fails validation.',
    spec: 'spec/mantle-hooks.md, Validation: "Validation checks: … payload type annotations and return types". Registration: "observe hooks take one typed payload".',
    fix: 'Annotate the parameter with the payload type of the point, imported from `rasa.mantle.hooks`: `async def guard(call: ToolCallPayload) -> ToolCallPayload:`. The quick fix writes the annotation and adds the import (to an existing `from rasa.mantle.hooks import …` when there is one, in its style).',
    example: {
      bad: `from rasa.mantle.hooks import ToolCallPayload, modify_tool_call


@modify_tool_call()
async def guard(call: dict) -> ToolCallPayload:
    return call
`,
      good: `from rasa.mantle.hooks import ToolCallPayload, modify_tool_call


@modify_tool_call()
async def guard(call: ToolCallPayload) -> ToolCallPayload:
    return call
`,
    },
  },
  fixable: true,
  messages: {
    missing:
      'The payload parameter {{param}} of {{handler}} has no type annotation; {{decorator}} hooks must declare {{declaration}}.',
    wrongType:
      "{{decorator}} passes a {{wanted}}, but {{param}} is annotated {{annotation}}; the engine's validation requires {{wanted}}.",
    notImported: NOT_IMPORTED_MESSAGE,
  },
  check(ctx) {
    const out: HookDiagnostic[] = [];
    checkHooks(ctx.module, clean, (h) => {
      const param = payloadParameter(h.fn);
      if (!param) return true; // wrong-arity reports it
      const wanted = h.payload.name;
      const ann = param.annotation;
      if (!ann) {
        const spelled = spellMantleName(ctx.module, ctx.text, wanted);
        const at = param.nameRange.end;
        out.push(
          reportMessage(
            this,
            ctx,
            param.nameRange,
            'missing',
            {
              param: q(param.name),
              handler: q(h.fn.name),
              decorator: q(h.hook.name),
              declaration: q(param.name + ': ' + wanted),
            },
            {
              fixes: [
                fix(
                  `Annotate as ${wanted}`,
                  [...spelled.importEdits, { range: { start: at, end: at }, newText: `: ${spelled.text}` }],
                  true,
                ),
              ],
            },
          ),
        );
        return false;
      }
      // Imported and right, the common case: decided by the def's own resolved name.
      if (!ann.optionalOf && isMantleMember(ann.ref, wanted)) return true;
      // Otherwise the name resolves against the whole module: checked again next time.
      const target = annotationTarget(ctx.module, ann);
      if (target.member === wanted && !ann.optionalOf) {
        if (target.unimported) out.push(notImportedReport(this, ctx, ann, wanted));
        return false;
      }
      const optionalMember = ann.optionalOf
        ? annotationTarget(ctx.module, { ...ann, ref: ann.optionalOf, optionalOf: undefined }).member
        : undefined;
      const what = optionalMember === wanted ? `${q(ann.text)} (it allows None)` : q(ann.text);
      const edits = replaceAnnotationEdits(ctx.module, ctx.text, ann, wanted);
      out.push(
        reportMessage(
          this,
          ctx,
          ann.range,
          'wrongType',
          { decorator: q(h.hook.name), wanted: q(wanted), param: q(param.name), annotation: what },
          { fixes: edits ? [fix(`Annotate as ${wanted}`, edits, true)] : [] },
        ),
      );
      return false;
    });
    return out;
  },
};
