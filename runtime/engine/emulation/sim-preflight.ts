// Tool-call preflight (spec "Multi-tool batches"): tool_call fires once per call of the batch,
// in batch order, before any tool runs; a RetryModel discards the whole batch.
import type { ToolCallToRun } from './sim-dispatch';
import { failedClosed, firePoint, type SimContext } from './sim-points';

export type Preflight =
  | { run: ToolCallToRun[] }
  /** RetryModel: the batch is discarded; its feedback goes to the next request only. */
  | { retry: string | undefined }
  /** The fail-closed hook crashed or timed out (its outcome): the batch is not dispatched. */
  | { failed: string };

export async function preflight(
  ctx: SimContext,
  identity: Record<string, unknown>,
  calls: Record<string, unknown>[],
): Promise<Preflight> {
  const run: ToolCallToRun[] = [];
  for (const call of calls) {
    const fired = await firePoint(ctx, 'tool_call', {
      tool_name: call.tool_name,
      arguments: call.tool_args ?? {},
      headers: {},
      ...identity,
    });
    if (fired.modify?.outcome === 'retry-model') {
      const feedback = fired.modify.signal?.feedback;
      ctx.transcript.push({
        role: 'engine',
        text: `RetryModel in tool-call preflight: the whole batch is discarded (no tool ran, its text is not emitted); feedback for the next request only: ${feedback ?? '(none)'}`,
      });
      return { retry: feedback };
    }
    if (failedClosed(fired)) return { failed: String(fired.modify?.outcome) };
    run.push({
      id: String(call.id),
      tool_name: String(fired.payload.tool_name),
      arguments: (fired.payload.arguments as Record<string, unknown>) ?? {},
    });
  }
  return { run };
}
