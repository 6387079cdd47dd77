// A `before_*` / `after_*` method on a RuntimeHook subclass that is no phase: never called.
import { CAYU_PHASE_IDS } from '../catalogue';
import type { HookDiagnostic } from './diagnostics';
import { cayuHookClasses } from '../python/hooks';
import { closest } from './util/edit-distance';
import type { Rule } from './rule';
import { fix, reportMessage } from './util/diagnostic';

const CODE = 'cayu-unknown-phase';

export const cayuUnknownPhase: Rule = {
  code: CODE,
  engine: 'cayu',
  severity: 'warning',
  title: 'A `before_*`/`after_*` method that is no Cayu phase (likely a typo)',
  docs: {
    what: `A method of a \`RuntimeHook\` subclass whose name starts with \`before_\` or \`after_\` but is none of the phases (${CAYU_PHASE_IDS.join(', ')}).`,
    why: 'A subclass only takes part in a phase whose method it overrides. A misspelt phase (`after_tool_cal`, `before_toolcall`) is silently never called, so the hook looks installed but does nothing.',
    spec: '"A RuntimeHook subclass only takes part in a phase whose method it overrides" (DESIGN.md, Cayu facts); the phases are listed under RuntimeHookPhase in spec/cayu-runtime-hooks.md.',
    fix: 'Rename the method to the phase it was meant for (the quick fix offers the closest phase name), or rename a helper so it does not look like a phase.',
    example: {
      bad: `from cayu.observability import BeforeToolCallDecision, BeforeToolCallHookContext, RuntimeHook


class Guard(RuntimeHook):
    async def before_tool_cal(self, context: BeforeToolCallHookContext) -> BeforeToolCallDecision | None:
        return None
`,
      good: `from cayu.observability import BeforeToolCallDecision, BeforeToolCallHookContext, RuntimeHook


class Guard(RuntimeHook):
    async def before_tool_call(self, context: BeforeToolCallHookContext) -> BeforeToolCallDecision | None:
        return None
`,
      file: 'runtime_hooks.py',
    },
  },
  fixable: true,
  messages: {
    notAPhase: '{{method}} is not a Cayu phase and is never called',
    notAPhaseGuess: "{{method}} is not a Cayu phase and is never called; did you mean '{{guess}}'?",
  },
  check(ctx) {
    const { module } = ctx;
    const out: HookDiagnostic[] = [];
    const phases: readonly string[] = CAYU_PHASE_IDS;
    for (const { cls, unknownPhaseMethods } of cayuHookClasses(module)) {
      for (const m of unknownPhaseMethods) {
        const guess = closest(m.name, phases, 4);
        const method = `${cls.name}.${m.name}`;
        out.push(
          guess
            ? reportMessage(
                this,
                ctx,
                m.nameRange,
                'notAPhaseGuess',
                { method, guess },
                { fixes: [fix(`Rename to ${guess}`, [{ range: m.nameRange, newText: guess }], true)] },
              )
            : reportMessage(this, ctx, m.nameRange, 'notAPhase', { method }),
        );
      }
    }
    return out;
  },
};
