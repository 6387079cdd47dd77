// Where the Cayu lines play a tool round differently, as data, in one place. The emulation follows
// the selected line (catalogue/cayu-lines.ts: the --cayu-line option or hooksmith.cayu.apiLine
// setting, else the installed cayu's layout); with no line selected it follows cayu 0.3.0, whose
// recording is the corpus's baseline (test/fixtures/cayu-corpus/recorded.json). Each fact was
// read from the installed package and is held by the corpus recorded from it
// (recorded-0.15.0.json: the after-args-*, combo-batch-*, tool-raises-*, batch-of-five-* cases).
import { activeCayuLine, type CayuLineId } from '../../catalogue/cayu-lines';

export interface CayuRoundBehaviour {
  /**
   * A batch's after-hooks wait until every call of it has run (its before-hooks and its tool),
   * then run in call order. Else each call's after-hooks run as its tool returns, before the next
   * call's before-hooks.
   */
  deferredAfterHooks: boolean;
  /** after_tool_call hooks of a batch of two or more see `context.arguments == {}`. */
  batchAfterArgumentsEmpty: boolean;
  /**
   * A tool that raises (its effect external, the default) interrupts the session for manual
   * reconciliation: no after-hook runs, no result of the round is saved, the round's hook events
   * are not published, and the session ends interrupted. Else the exception is the call's error result.
   */
  raisedToolInterrupts: boolean;
}

export const CAYU_ROUND_BEHAVIOUR: Readonly<Record<CayuLineId, CayuRoundBehaviour>> = {
  // cayu 0.3.0: runtime/_tool_round_executor.py runs a batch's calls one after another; the call
  // projected for after-hooks carries arguments={} in a batch (:1893, :5056, :5975); a raising
  // tool's exception becomes its error result (runtime/_tool_execution.py).
  'cayu-0.3': { deferredAfterHooks: false, batchAfterArgumentsEmpty: true, raisedToolInterrupts: false },
  'cayu-newer': {
    // cayu 0.15.0: a call's before-hooks run as it executes (runtime/_tool_invocation/invocation.py:898),
    // its after-hooks when its staged terminal is published (runtime/_tool_invocation/terminal.py:559,
    // :889), and the round publishes the staged terminals once every call has executed
    // (runtime/_durable_tool_round.py:510, :1824); corpus batch-of-five-lockstep: five
    // before-hooks, then five after-hooks.
    deferredAfterHooks: true,
    // After-hooks see the call's effective arguments, batch or not: the projection gives {} only
    // when arguments are unavailable (runtime/_tool_invocation/hooks.py:205-220, :537).
    batchAfterArgumentsEmpty: false,
    // A ToolSpec's effect defaults to EXTERNAL (tools/base.py:385); a tool's own exception stays an
    // ordinary failure, "ambiguous for external effects" (runtime/_tool_execution.py:944-947): its
    // terminal carries outcome_unknown, so the round's staging preserves the unresolved effect and
    // raises ToolEffectReconciliationRequired (runtime/_tool_round_staging.py:688-724), and the
    // session ends session.interrupted (interruption_type runtime_interrupted).
    raisedToolInterrupts: true,
  },
};

/**
 * The selected line's round behaviour; with no line selected (no cayu installed, no setting), the
 * line the hook modules' own imports name (cayu-line-of-module.ts), else cayu 0.3.0's.
 */
export function cayuRoundBehaviour(ofImports?: CayuLineId): CayuRoundBehaviour {
  return CAYU_ROUND_BEHAVIOUR[activeCayuLine()?.id ?? ofImports ?? 'cayu-0.3'];
}
