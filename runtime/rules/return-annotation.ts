// return-annotation: observe hooks must be `-> None`, modify hooks `-> <the payload type>`.
import type { Rule } from './rule';
import { fix, q, reportMessage } from './util/diagnostic';
import {
  annotationTarget,
  NOT_IMPORTED_MESSAGE,
  notImportedReport,
  replaceAnnotationEdits,
} from './util/annotations';
import { mantleHooks } from '../python/hooks';
import { spellMantleName } from './util/mantle-import-fix';

export const returnAnnotation: Rule = {
  code: 'return-annotation',
  engine: 'mantle',
  severity: 'error',
  title: 'Observe hooks return None; modify hooks return their payload type',
  docs: {
    what: 'A hook whose return annotation is missing or wrong: an observe hook (`on_*`) not annotated `-> None`, or a modify hook (`modify_*`) not annotated with its own payload type (`Optional[...]` included, since returning None is an invalid return). Hooksmith treats a missing return annotation as an error: the engine checks return types, and an absent annotation gives it nothing to check.',
    why: "Return types are part of what `rasa train` and model load validate. A modify hook's result replaces the payload, so it has to be the same type; an observe hook's result is discarded.",
    spec: 'spec/mantle-hooks.md, Registration: "Signatures: observe hooks take one typed payload and return `None`; modify hooks take one typed payload and return the same type." Validation: "payload type annotations and return types".',
    fix: 'Write `-> None` on `on_*` hooks and `-> <Payload>` on `modify_*` hooks, e.g. `async def guard(call: ToolCallPayload) -> ToolCallPayload:`. The quick fix writes it (importing the payload type when needed).',
    example: {
      bad: `from rasa.mantle.hooks import ToolCallPayload, modify_tool_call


@modify_tool_call()
async def guard(call: ToolCallPayload):
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
      '{{handler}} has no return annotation; {{decorator}} hooks must be annotated {{wanted}} ({{reason}}).',
    observeNotNone:
      'Observe hook {{handler}} is annotated {{annotation}}; observe hooks return None (the engine discards any result).',
    wrongType:
      '{{decorator}} hook {{handler}} must return {{wanted}}, not {{annotation}}; modify hooks return the same type they receive.',
    optionalType:
      '{{decorator}} hook {{handler}} must return {{wanted}}, not {{annotation}} — returning None is an invalid return; modify hooks return the same type they receive.',
    notImported: NOT_IMPORTED_MESSAGE,
  },
  check(ctx) {
    const out = [];
    for (const h of mantleHooks(ctx.module)) {
      const ann = h.fn.returnAnnotation;
      const wanted = h.lane === 'observe' ? 'None' : h.payload.name;
      const rule =
        h.lane === 'observe'
          ? 'observe hooks return None'
          : `modify hooks return the payload type they receive`;
      if (!ann) {
        const spelled =
          wanted === 'None'
            ? { text: 'None', importEdits: [] }
            : spellMantleName(ctx.module, ctx.text, wanted);
        const at = h.fn.parametersRange.end;
        out.push(
          reportMessage(
            this,
            ctx,
            h.fn.nameRange,
            'missing',
            { handler: q(h.fn.name), decorator: q(h.hook.name), wanted: q('-> ' + wanted), reason: rule },
            {
              fixes: [
                fix(
                  `Annotate -> ${wanted}`,
                  [...spelled.importEdits, { range: { start: at, end: at }, newText: ` -> ${spelled.text}` }],
                  true,
                ),
              ],
            },
          ),
        );
        continue;
      }
      if (h.lane === 'observe') {
        if (ann.isNone) continue;
        out.push(
          reportMessage(
            this,
            ctx,
            ann.range,
            'observeNotNone',
            { handler: q(h.fn.name), annotation: q('-> ' + ann.text) },
            {
              fixes: [fix('Annotate -> None', [{ range: ann.range, newText: 'None' }], true)],
            },
          ),
        );
        continue;
      }
      const target = annotationTarget(ctx.module, ann);
      if (target.member === wanted && !ann.optionalOf && !target.unimported) continue;
      if (target.member === wanted && target.unimported && !ann.optionalOf) {
        out.push(notImportedReport(this, ctx, ann, wanted));
        continue;
      }
      const edits = replaceAnnotationEdits(ctx.module, ctx.text, ann, wanted);
      out.push(
        reportMessage(
          this,
          ctx,
          ann.range,
          ann.optionalOf ? 'optionalType' : 'wrongType',
          { decorator: q(h.hook.name), handler: q(h.fn.name), wanted: q(wanted), annotation: q(ann.text) },
          { fixes: edits ? [fix(`Annotate -> ${wanted}`, edits, true)] : [] },
        ),
      );
    }
    return out;
  },
};
