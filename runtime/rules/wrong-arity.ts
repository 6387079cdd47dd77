// wrong-arity: a hook that does not take exactly one parameter, the payload.
import type { Parameter } from '../python/model';
import type { Rule } from './rule';
import { andList, q, reportMessage } from './util/diagnostic';
import { mantleHooks } from '../python/hooks';

function describe(p: Parameter): string {
  switch (p.kind) {
    case 'var-positional':
      return `${q('*' + p.name)}`;
    case 'var-keyword':
      return `${q('**' + p.name)}`;
    case 'keyword-only':
      return `keyword-only ${q(p.name)}`;
    default:
      return p.hasDefault ? `${q(p.name)} (with a default)` : q(p.name);
  }
}

export const wrongArity: Rule = {
  code: 'wrong-arity',
  engine: 'mantle',
  severity: 'error',
  title: 'Hooks take exactly one parameter: the payload',
  docs: {
    what: 'A Mantle hook whose signature is not exactly one positional parameter: no parameter at all, a second parameter (even one with a default), a keyword-only parameter, or `*args` / `**kwargs`.',
    why: 'The engine calls every hook with one payload argument and validates the signature against that contract at `rasa train` and model load. Hooksmith reads the spec strictly: extra parameters with defaults would not break the call, but they are not "one typed payload", and `*args` hides the payload parameter that the annotation check needs.',
    spec: 'spec/mantle-hooks.md, Registration: "Signatures: observe hooks take one typed payload and return `None`; modify hooks take one typed payload and return the same type."',
    fix: 'Declare one parameter for the payload, e.g. `async def audit(call: ToolCallPayload) -> None:`. Move options into module-level constants and state into module-level variables.',
    example: {
      bad: `from rasa.mantle.hooks import ToolCallPayload, on_tool_call


@on_tool_call()
async def audit(call: ToolCallPayload, verbose: bool = False) -> None:
    return None
`,
      good: `from rasa.mantle.hooks import ToolCallPayload, on_tool_call

VERBOSE = False


@on_tool_call()
async def audit(call: ToolCallPayload) -> None:
    return None
`,
    },
  },
  fixable: false,
  messages: {
    noPayload:
      '{{handler}} takes {{got}}; the engine calls {{decorator}} hooks with exactly one positional argument, the {{payload}}.',
    extraParameter:
      '{{handler}} takes more than the payload: {{extra}}. {{lane}} hook takes exactly one typed payload ({{payload}}); remove the extra parameter.',
    extraParameters:
      '{{handler}} takes more than the payload: {{extra}}. {{lane}} hook takes exactly one typed payload ({{payload}}); remove the extra parameters.',
  },
  check(ctx) {
    const out = [];
    for (const h of mantleHooks(ctx.module)) {
      const params = h.fn.parameters;
      const first = params[0];
      const firstIsPositional =
        first !== undefined && (first.kind === 'positional' || first.kind === 'positional-only');
      if (!firstIsPositional) {
        const range = first ? first.range : h.fn.parametersRange;
        const got = first ? `only ${describe(first)}` : 'no parameter';
        out.push(
          reportMessage(this, ctx, range, 'noPayload', {
            handler: q(h.fn.name),
            got,
            decorator: q(h.hook.name),
            payload: q(h.payload.name),
          }),
        );
        continue;
      }
      if (params.length === 1) continue;
      const extra = params.slice(1);
      out.push(
        reportMessage(
          this,
          ctx,
          { start: extra[0].range.start, end: extra[extra.length - 1].range.end },
          extra.length > 1 ? 'extraParameters' : 'extraParameter',
          {
            handler: q(h.fn.name),
            extra: andList(extra.map(describe)),
            lane: h.lane === 'observe' ? 'An observe' : 'A modify',
            payload: q(h.payload.name),
          },
        ),
      );
    }
    return out;
  },
};
