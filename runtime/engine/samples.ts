// `hooksmith payload POINT`: a valid sample payload as the engine really sends it (tool result
// `value` as JSON text), from the catalogue's samples; Cayu phases get their context data.
import {
  CAYU_PHASE_IDS,
  findCayuPhase,
  findDecorator,
  findPayloadType,
  findPoint,
  getPayloadType,
  POINT_IDS,
} from '../catalogue';
import { CAYU_CONTEXT_SAMPLES } from './cayu-context';
import { cloneJson } from '../json/json-equal';

export type SampleLookup =
  | { ok: true; kind: 'mantle' | 'cayu'; name: string; payload: Record<string, unknown> }
  | { ok: false; message: string };

/** POINT: a point id (tool_result), a decorator (modify_tool_result), a payload type, or a Cayu phase. */
export function samplePayload(name: string): SampleLookup {
  const point = findPoint(name) ?? findDecorator(name)?.point;
  if (point)
    return {
      ok: true,
      kind: 'mantle',
      name: point.id,
      payload: cloneJson(getPayloadType(point.payloadType).sample),
    };
  const type = findPayloadType(name);
  if (type) return { ok: true, kind: 'mantle', name: type.name, payload: cloneJson(type.sample) };
  const phase = findCayuPhase(name);
  if (phase)
    return { ok: true, kind: 'cayu', name: phase.id, payload: cloneJson(CAYU_CONTEXT_SAMPLES[phase.id]) };
  return {
    ok: false,
    message: `unknown point '${name}': expected one of ${[...POINT_IDS, ...CAYU_PHASE_IDS].join(', ')} (or a decorator / payload type name)`,
  };
}
