// The options of the commands that may play real models: `--record missing|all|none` and
// `--model model=NAME,base_url=URL,api_key_env=VAR,…` (a model for every scenario that names none).
import type { ModelRunOptions } from '../engine/model-step';
import type { SimulationResult } from '../engine/api';
import * as path from 'node:path';
import { modelConfig, RECORD_MODES, replayedFault, type RecordMode } from '../models';
import { formatIssues } from '../json/json-path';
import type { OptionSpec } from './args';

export const MODEL_SPEC: OptionSpec = { record: { type: 'string' }, model: { type: 'string' } };

export const MODEL_USAGE = '[--record missing|all|none] [--model model=NAME,base_url=URL,api_key_env=VAR]';

const NUMERIC = new Set(['temperature', 'max_tokens', 'timeout_ms', 'max_retries']);

/** The model options, or the usage error to print. */
export function modelOptions(values: Record<string, unknown>): ModelRunOptions | string {
  const out: ModelRunOptions = {};
  const record = values.record;
  if (typeof record === 'string') {
    if (!(RECORD_MODES as readonly string[]).includes(record))
      return `--record must be ${RECORD_MODES.join(', ')}, got ${record}`;
    out.record = record as RecordMode;
  }
  if (typeof values.model === 'string') {
    const fields: Record<string, unknown> = {};
    for (const part of values.model.split(',').filter(Boolean)) {
      const eq = part.indexOf('=');
      if (eq < 1) return `--model: expected key=value, got ${part}`;
      const k = part.slice(0, eq).trim();
      const v = part.slice(eq + 1).trim();
      fields[k] = NUMERIC.has(k) ? Number(v) : v;
    }
    const parsed = modelConfig.safeParse(fields);
    if (!parsed.success) return `--model: ${formatIssues(parsed.error).join('; ')}`;
    out.model = parsed.data;
  }
  return out;
}

/** Lines for stderr: the cassette written, why it could not answer, the model's faults. */
export function modelLines(result: SimulationResult): string[] {
  const m = result.models;
  if (!m) return [];
  const out: string[] = [];
  if (m.saved && m.cassette) out.push(`recorded the model exchanges to ${m.cassette}`);
  if (m.failure) out.push(`the cassette cannot answer: ${m.failure}`);
  const where = m.cassette ? path.basename(m.cassette) : 'the cassette';
  for (const e of m.exchanges)
    if (e.fault)
      out.push(
        `the ${e.role}'s model failed in turn ${e.turn}: ${e.fault}${e.source === 'replayed' ? ` (${replayedFault(where)})` : ''}`,
      );
  return out;
}

/** A model run the cassette could not answer, or whose model failed: the verdict is not to be trusted. */
export function modelFailed(result: SimulationResult): boolean {
  return !!result.models && (!!result.models.failure || result.models.exchanges.some((e) => e.fault));
}
