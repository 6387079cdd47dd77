// unsupported-control-signal: RetryModel / HookRejection raised where the point and lane do not allow it.
import { CONTROL_SIGNALS, HOOK_DECORATORS, MANTLE_MODULE, type ControlSignal } from '../catalogue';
import type { Fix, TextEdit } from './diagnostics';
import type { HookModule, RaiseFacts } from '../python/model';
import type { Rule } from './rule';
import { andList, fix, q, reportMessage } from './util/diagnostic';
import { mantleHooks, payloadParameter, type MantleHook } from '../python/hooks';
import { resolveMantleName } from '../python/names';
import { spellMantleName } from './util/mantle-import-fix';
import { lineText } from '../python/text';
import { removeImportEdits, swapImportEdits } from '../python/import-edits';

function signalOf(module: HookModule, r: RaiseFacts): ControlSignal | undefined {
  const name = resolveMantleName(module, r.exception)?.member;
  return CONTROL_SIGNALS.find((s) => s === name);
}

function allowedText(h: MantleHook): string {
  if (h.lane === 'observe')
    return 'observe hooks cannot raise control signals (they are for modify hooks only)';
  if (h.point.signals.length === 0) return `${q(h.hook.name)} allows no control signal`;
  return `${q(h.hook.name)} allows only ${andList(h.point.signals.map((s) => q(s)))}`;
}

function runtimeEffect(h: MantleHook): string {
  if (h.lane === 'observe') return 'it is logged and discarded: observe hooks have no effect on the turn';
  return h.point.unsupportedSignalEffect;
}

/** The keyword each signal's message goes by: `RetryModel(feedback=…)`, `HookRejection(reason=…)`. */
const MESSAGE_KEYWORD: Record<ControlSignal, string> = { RetryModel: 'feedback', HookRejection: 'reason' };

/** Fix titles say what the engine will do, so no fix silently changes what the hook means. */
const SWITCH_TITLE: Record<ControlSignal, string> = {
  RetryModel: 'Raise RetryModel instead: the model is asked again with this feedback',
  HookRejection: 'Raise HookRejection instead: this is rejected and the user receives the fallback',
};
const REMOVE_TITLE: Record<ControlSignal, string> = {
  HookRejection: 'Remove the rejection: this hook will no longer block anything',
  RetryModel: 'Remove the retry: this hook will no longer ask the model again',
};

/** The signal the point does allow, keeping the message (and its keyword) and merging the import. */
function switchFix(
  module: HookModule,
  source: string,
  r: RaiseFacts,
  from: ControlSignal,
  to: ControlSignal,
): Fix | undefined {
  if (!r.exception) return undefined;
  const spelled = spellMantleName(module, source, to);
  const edits: TextEdit[] = [{ range: r.exception.range, newText: spelled.text }];
  for (const k of r.call?.keywords ?? [])
    if (k.name === MESSAGE_KEYWORD[from]) edits.push({ range: k.nameRange, newText: MESSAGE_KEYWORD[to] });
  const unused = leftUnused(module, source, r);
  const imports =
    unused && spelled.importEdits.length
      ? swapImportEdits(module, source, MANTLE_MODULE, [spelled.text], [unused])
      : [
          ...spelled.importEdits,
          ...(unused ? removeImportEdits(module, source, MANTLE_MODULE, [unused]) : []),
        ];
  return fix(SWITCH_TITLE[to], [...imports, ...edits]);
}

/**
 * The signal's imported name when this raise is its only use (a word search over the whole text,
 * comments and strings included, so a doubt keeps the import): the fix leaves it unused.
 */
function leftUnused(module: HookModule, source: string, r: RaiseFacts): string | undefined {
  const name = r.exception?.text;
  if (!name || !/^\w+$/.test(name)) return undefined;
  const bindings = module.imports.filter(
    (b) => b.moduleLevel && b.module === MANTLE_MODULE && b.localName === name,
  );
  if (bindings.length !== 1) return undefined;
  const uses = source.match(new RegExp(`(?<![\\w.])${name}(?!\\w)`, 'gu'))?.length ?? 0;
  return uses === 2 ? name : undefined; // the import and this raise
}

/**
 * Removing the signal, named as such: the raise becomes `return <payload>` (what the engine does
 * with a discarded signal) or a bare `return` in an observer. Only when it stands alone on its line.
 */
function removalFix(
  module: HookModule,
  source: string,
  h: MantleHook,
  r: RaiseFacts,
  signal: ControlSignal,
): Fix | undefined {
  const first = lineText(source, r.range.start.line);
  const last = lineText(source, r.range.end.line);
  if (first.slice(0, r.range.start.character).trim() !== '') return undefined;
  const after = last.slice(r.range.end.character).trim();
  if (after !== '' && !after.startsWith('#')) return undefined;
  const param = payloadParameter(h.fn);
  if (h.lane === 'modify' && !param) return undefined;
  const text = h.lane === 'modify' ? `return ${param!.name}` : 'return';
  const unused = leftUnused(module, source, r);
  const imports = unused ? removeImportEdits(module, source, MANTLE_MODULE, [unused]) : [];
  return fix(REMOVE_TITLE[signal], [...imports, { range: r.range, newText: text }]);
}

export const unsupportedControlSignal: Rule = {
  code: 'unsupported-control-signal',
  engine: 'mantle',
  severity: 'error',
  title: 'Control signal not allowed at this point',
  docs: {
    what: `A \`raise RetryModel(...)\` or \`raise HookRejection(...)\` (imported, aliased, or as \`mh.RetryModel\`) in a hook where the point and lane do not allow it. Only modify hooks may signal: ${CONTROL_SIGNALS.map((s) => `\`${s}\` on ${andList(HOOK_DECORATORS.filter((d) => d.lane === 'modify' && d.point.signals.includes(s)).map((d) => `\`${d.name}\``))}`).join(', ')}. Raises in helper functions the hook calls are not followed.`,
    why: "The engine's AST check rejects the hook at `rasa train`. As a runtime backstop the signal is logged and discarded and the original payload is kept, so the veto or retry the author intended never happens.",
    spec: 'spec/mantle-hooks.md, Control signals: "Raising a control signal at any other point is invalid hook behaviour and fails at train time when detected by the AST check." Insertion points: "Control signals (modify only)".',
    fix: 'Raise the signal the point allows, or move the logic to a point that allows the signal (e.g. veto tool calls with `RetryModel` in `modify_tool_call`, not in `modify_tool_result`). Quick fixes: where the point allows the other signal, "Raise RetryModel instead" / "Raise HookRejection instead" keeps the message (and merges the import); removing the signal is offered only under its own name ("Remove the rejection: this hook will no longer block anything"), and returns the payload unchanged (what the engine does with the discarded signal). No fix is preferred: each changes what the hook does.',
    example: {
      bad: `from rasa.mantle.hooks import RetryModel, ToolResultPayload, modify_tool_result


@modify_tool_result()
async def guard(result: ToolResultPayload) -> ToolResultPayload:
    if result.tool_name == "delete_account":
        raise RetryModel("Ask the user to confirm before deleting the account.")
    return result
`,
      good: `from rasa.mantle.hooks import RetryModel, ToolCallPayload, modify_tool_call


@modify_tool_call()
async def guard(call: ToolCallPayload) -> ToolCallPayload:
    if call.tool_name == "delete_account":
        raise RetryModel("Ask the user to confirm before deleting the account.")
    return call
`,
    },
  },
  fixable: true,
  messages: {
    notAllowedHere: '{{allowed}}; {{signal}} here fails rasa train (AST check), and at run time {{effect}}.',
  },
  check(ctx) {
    const out = [];
    for (const h of mantleHooks(ctx.module)) {
      for (const r of h.fn.body.raises) {
        const signal = signalOf(ctx.module, r);
        if (!signal) continue;
        if (h.lane === 'modify' && h.point.signals.includes(signal)) continue;
        const fixes = [
          ...(h.lane === 'modify' ? h.point.signals.filter((s) => s !== signal) : []).map((to) =>
            switchFix(ctx.module, ctx.text, r, signal, to),
          ),
          removalFix(ctx.module, ctx.text, h, r, signal),
        ].filter((f): f is Fix => f !== undefined);
        out.push(
          reportMessage(
            this,
            ctx,
            r.range,
            'notAllowedHere',
            { allowed: allowedText(h), signal: q(signal), effect: runtimeEffect(h) },
            { fixes },
          ),
        );
      }
    }
    return out;
  },
};
