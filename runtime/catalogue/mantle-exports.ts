// What `rasa.mantle.hooks` exports: the decorators, the payload types and the control signals.
import { HOOK_DECORATORS, CONTROL_SIGNALS } from './mantle-points';
import { PAYLOAD_TYPE_NAMES } from './mantle-payloads';

export const MANTLE_EXPORTS: readonly string[] = [
  ...HOOK_DECORATORS.map((d) => d.name),
  ...PAYLOAD_TYPE_NAMES,
  ...CONTROL_SIGNALS,
];

const exportSet = new Set(MANTLE_EXPORTS);
export function isMantleExport(name: string): boolean {
  return exportSet.has(name);
}
