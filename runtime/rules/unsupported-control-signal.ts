// unsupported-control-signal: RetryModel / HookRejection raised where the point and lane do not allow it.
import { CONTROL_SIGNALS, HOOK_DECORATORS, type ControlSignal } from '../catalogue';
import type { Fix } from '../diagnostics';
import type { HookModule, RaiseFacts } from '../python/model';
import type { Rule } from './rule';
import { andList, fix, q, report } from './util/diagnostic';
import { mantleHooks, type MantleHook } from './util/hooks';
import { resolveMantleName } from './util/names';
import { indentOf, lineText, splitLines } from './util/text';

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

/** The nearest line from `from` on (going `step`) that holds code, not blank or only a comment. */
function codeLine(lines: readonly string[], from: number, step: 1 | -1): string | undefined {
  for (let i = from; i >= 0 && i < lines.length; i += step) {
    const t = lines[i].trim();
    if (t && !t.startsWith('#')) return lines[i];
  }
  return undefined;
}

/**
 * Removing the raise is offered only when the statement is alone on its lines. When it is the
 * only statement of its block (the line before ends with `:` and the next line is dedented),
 * it becomes `pass` so the block stays valid.
 */
function removalFix(source: string, r: RaiseFacts): Fix | undefined {
  const lines = splitLines(source);
  const first = lineText(source, r.range.start.line);
  const last = lineText(source, r.range.end.line);
  if (first.slice(0, r.range.start.character).trim() !== '') return undefined;
  const after = last.slice(r.range.end.character).trim();
  if (after !== '' && !after.startsWith('#')) return undefined;
  const indent = indentOf(first).length;
  const prev = codeLine(lines, r.range.start.line - 1, -1);
  const next = codeLine(lines, r.range.end.line + 1, 1);
  const opensBlock = prev !== undefined && /:\s*(#.*)?$/.test(prev);
  const closesBlock = next === undefined || indentOf(next).length < indent;
  if (opensBlock && closesBlock) {
    return fix('Replace the raise with `pass`', [{ range: r.range, newText: 'pass' }]);
  }
  const start = { line: r.range.start.line, character: 0 };
  // On the file's last line (no final newline) the removal ends at the line's end, not past the text.
  const isLastLine = r.range.end.line + 1 >= lines.length;
  const end = isLastLine
    ? { line: r.range.end.line, character: last.length }
    : { line: r.range.end.line + 1, character: 0 };
  return fix('Remove the raise statement', [{ range: { start, end }, newText: '' }]);
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
    fix: 'Remove the raise, or move the logic to a point that allows the signal (e.g. veto tool calls with `RetryModel` in `modify_tool_call`, not in `modify_tool_result`). The quick fix removes the statement when it stands alone on its lines (or replaces it with `pass` when it is the only statement of its block).',
  },
  fixable: true,
  check(ctx) {
    const out = [];
    for (const h of mantleHooks(ctx.module)) {
      for (const r of h.fn.body.raises) {
        const signal = signalOf(ctx.module, r);
        if (!signal) continue;
        if (h.lane === 'modify' && h.point.signals.includes(signal)) continue;
        const removal = removalFix(ctx.text, r);
        out.push(
          report(
            this,
            ctx,
            r.range,
            `${allowedText(h)}; ${q(signal)} here fails rasa train (AST check), and at run time ${runtimeEffect(h)}.`,
            { fixes: removal ? [removal] : [] },
          ),
        );
      }
    }
    return out;
  },
};
