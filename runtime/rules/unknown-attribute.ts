// unknown-attribute: an attribute the hook's payload (Mantle) or context (Cayu) does not have,
// read on the hook's own parameter: `call.argumentz`, `context.tool_nmae`. The fields are the
// catalogue's (runtime/catalogue: mantle-payloads.ts, cayu.ts), so the rule follows the engine line
// the catalogue is read from. Conservative: only the parameter itself, only where it is never
// rebound to anything else, never a name a `hasattr` guard tests, never `_private` or Pydantic's.
import {
  CAYU_CONTEXT_METHODS,
  CAYU_TOOL_RESULT_FIELDS,
  allFields,
  findCayuContext,
  type PayloadType,
} from '../catalogue';
import type { HookDiagnostic } from './diagnostics';
import { contextParameter, payloadParameter, phaseMethods } from '../python/hooks';
import type { AttributeRead, FunctionDef, Range } from '../python/model';
import type { Rule, RuleContext } from './rule';
import { fix, q, reportMessage } from './util/diagnostic';
import { nearest } from './util/edit-distance';
import { checkHooks, cleanHooksBit, type CleanHooks } from './util/clean-hooks';

const CODE = 'unknown-attribute';

/** What every Pydantic v2 model has besides its fields (v1 names kept as deprecated aliases). */
const PYDANTIC_NAMES = new Set([
  'copy',
  'dict',
  'json',
  'construct',
  'schema',
  'schema_json',
  'validate',
  'parse_obj',
  'parse_raw',
  'parse_file',
  'from_orm',
  'update_forward_refs',
]);

/** cayu ToolResult's own methods (cayu 0.15 `tools/base.py`, class ToolResult): not fields, but real. */
const TOOL_RESULT_METHODS = [
  'copy_result_data',
  'freeze_result_data',
  'serialize_artifacts',
  'serialize_structured',
  'validate_content',
];

function isAlwaysThere(name: string): boolean {
  return name.startsWith('_') || name.startsWith('model_') || PYDANTIC_NAMES.has(name);
}

/** The parameter is bound to something else in the body (kept only when rebound to its own copy). */
function rebound(fn: FunctionDef, name: string): boolean {
  return fn.body.bindings.some(
    (b) => b.target === name && !b.value?.callee?.startsWith(`${name}.model_copy`),
  );
}

/** Names a `hasattr(param, "x")` / `getattr(param, "x", …)` in the body tests: reading them is guarded. */
function guardedNames(fn: FunctionDef, param: string): Set<string> {
  const out = new Set<string>();
  for (const c of fn.body.calls) {
    if (c.callee.text !== 'hasattr' && c.callee.text !== 'getattr') continue;
    const [subject, attr] = c.positional;
    if (subject?.value.kind === 'other' && subject.value.text === param && attr?.value.kind === 'string')
      out.add(attr.value.value);
  }
  return out;
}

interface Found {
  name: string;
  /** Where the name is written. */
  range: Range;
  subject: Subject;
}

interface Subject {
  /** "payload", "context", "context.result": what is read. */
  label: string;
  /** Its type, for the message. */
  typeName: string;
  known: readonly string[];
}

function unknownReads(
  fn: FunctionDef,
  param: string,
  subject: (read: AttributeRead) => Found | undefined,
): Found[] {
  if (rebound(fn, param)) return [];
  const guarded = guardedNames(fn, param);
  const out: Found[] = [];
  for (const r of fn.body.attributeReads) {
    if (r.root !== param) continue;
    const found = subject(r);
    if (!found || isAlwaysThere(found.name) || guarded.has(found.name)) continue;
    if (!found.subject.known.includes(found.name)) out.push(found);
  }
  return out;
}

function mantleSubject(param: string, type: PayloadType): Subject {
  return { label: param, typeName: type.name, known: allFields(type).map((f) => f.name) };
}

export const unknownAttribute: Rule = {
  code: CODE,
  engine: 'python',
  severity: 'warning',
  title: 'An attribute the payload or context does not have',
  docs: {
    what: 'In a Mantle hook, an attribute read on the payload parameter that its payload type does not declare (`call.argumentz`); in a Cayu tool-call or session phase, an attribute of the context that it does not have (`context.tool_nmae`) or of `context.result` that a `ToolResult` does not have. Methods and names of Pydantic models (`model_copy`, `model_dump`, …) and `_private` names are never reported, nor a name a `hasattr` / `getattr` in the hook tests, nor a parameter the hook rebinds.',
    why: "Payloads and decisions are Pydantic models and the contexts plain classes: reading a name they lack raises AttributeError inside the hook. The engine then applies the fail policy (Mantle: the point's fail-open or fail-closed; Cayu: the hook is recorded as failed and the call goes on without it), so the hook silently does nothing, or closes the turn.",
    spec: 'spec/mantle-hooks.md, Payload wall: "Every payload carries read-only identity fields"; the payload tables list each type\'s fields (rasa-pro 3.21 `rasa/mantle/hooks/payloads.py`; `OutgoingTextPayload` also has `is_voice`, payloads.py:90). spec/cayu-runtime-hooks.md lists each context\'s properties.',
    fix: 'Use the field the type declares; the message names the nearest one (did you mean …?) and the quick fix replaces it.',
    example: {
      bad: `from rasa.mantle.hooks import ToolCallPayload, modify_tool_call


@modify_tool_call()
async def clamp(call: ToolCallPayload) -> ToolCallPayload:
    limit = min(int(call.argumentz.get("limit", 10)), 50)
    return call.model_copy(update={"arguments": {**call.arguments, "limit": limit}})
`,
      good: `from rasa.mantle.hooks import ToolCallPayload, modify_tool_call


@modify_tool_call()
async def clamp(call: ToolCallPayload) -> ToolCallPayload:
    limit = min(int(call.arguments.get("limit", 10)), 50)
    return call.model_copy(update={"arguments": {**call.arguments, "limit": limit}})
`,
    },
  },
  fixable: true,
  messages: {
    noAttribute:
      '{{subject}} ({{type}}) has no attribute {{name}} Reading it raises AttributeError inside the hook.',
    noAttributeDidYouMean:
      '{{subject}} ({{type}}) has no attribute {{name}}; did you mean {{suggestion}}? Reading it raises AttributeError inside the hook.',
  },
  check(ctx) {
    const out: HookDiagnostic[] = [];
    const say = ({ name, range, subject }: Found) => {
      const suggestion = nearest(name, subject.known);
      out.push(
        reportMessage(
          this,
          ctx,
          range,
          suggestion ? 'noAttributeDidYouMean' : 'noAttribute',
          {
            subject: q(subject.label),
            type: subject.typeName,
            name: q(name),
            ...(suggestion ? { suggestion: q(suggestion) } : {}),
          },
          { fixes: suggestion ? [fix(`Use ${suggestion}`, [{ range, newText: suggestion }])] : [] },
        ),
      );
    };
    if (ctx.isMantleModule) for (const f of mantleFindings(ctx)) say(f);
    for (const f of cayuFindings(ctx)) say(f);
    return out;
  },
};

/** A hook found with no unknown read keeps that verdict while its record lives (util/clean-hooks.ts). */
const clean: CleanHooks = cleanHooksBit();

function mantleFindings(ctx: RuleContext): Found[] {
  const out: Found[] = [];
  const seen = new Set<FunctionDef>(); // a def under two hook decorators is read once
  // What a hook's reads are checked against is its own: its def (the payload parameter, the
  // body's reads, rebinding and hasattr guards) and its point's payload type.
  checkHooks(ctx.module, clean, (h) => {
    const param = payloadParameter(h.fn)?.name;
    if (!param || seen.has(h.fn)) return true;
    seen.add(h.fn);
    const subject = mantleSubject(param, h.payload);
    const found = unknownReads(h.fn, param, (r) => ({
      name: r.path[0] as string,
      range: r.ranges[0] as Range,
      subject,
    }));
    for (const f of found) out.push(f);
    return found.length === 0;
  });
  return out;
}

function cayuFindings(ctx: RuleContext): Found[] {
  const out: Found[] = [];
  for (const { method, phase } of phaseMethods(ctx.module)) {
    const param = contextParameter(method)?.name;
    const context = findCayuContext(phase.context);
    if (!param || !context) continue;
    const own: Subject = {
      label: param,
      typeName: context.name,
      known: [...Object.keys(context.properties), ...CAYU_CONTEXT_METHODS],
    };
    const result: Subject = {
      label: `${param}.result`,
      typeName: 'ToolResult',
      known: [...Object.keys(CAYU_TOOL_RESULT_FIELDS), ...TOOL_RESULT_METHODS],
    };
    const hasResult = 'result' in context.properties;
    out.push(
      ...unknownReads(method, param, (r) => {
        const first = r.path[0] as string;
        if (first === 'result' && hasResult && r.path.length > 1)
          return { name: r.path[1] as string, range: r.ranges[1] as Range, subject: result };
        return { name: first, range: r.ranges[0] as Range, subject: own };
      }),
    );
  }
  return out;
}
