// What `rasa.mantle.hooks` exports: the decorators, the payload types and the control signals
// (as the selected engine line spells them: api-lines.ts refreshes the list).
import { HOOK_DECORATORS, CONTROL_SIGNALS, oldDecoratorNames } from './mantle-points';
import { PAYLOAD_TYPE_NAMES, oldPayloadNames } from './mantle-payloads';

/**
 * Exported beside the decorators, the payloads and the signals (rasa-pro 3.21,
 * rasa/mantle/hooks/__init__.py:44): the identity models, the payloads' base, the signals' base.
 */
export const MANTLE_SUPPORT_EXPORTS = ['CallInfo', 'ChannelInfo', 'HookPayload', 'HookControlFlow'] as const;

function exportNames(): string[] {
  return [
    ...HOOK_DECORATORS.map((d) => d.name),
    ...PAYLOAD_TYPE_NAMES,
    ...CONTROL_SIGNALS,
    ...MANTLE_SUPPORT_EXPORTS,
  ];
}

export const MANTLE_EXPORTS: readonly string[] = exportNames();

const exportSet = new Set(MANTLE_EXPORTS);
export function isMantleExport(name: string): boolean {
  return exportSet.has(name);
}

/** After the line changed the names: the list and the lookup follow, in place. */
export function refreshMantleExports(): void {
  const names = exportNames();
  (MANTLE_EXPORTS as string[]).splice(0, MANTLE_EXPORTS.length, ...names);
  exportSet.clear();
  // A line's old spellings stay exports (its docs still use them); the list offers the new ones.
  for (const n of [...names, ...oldDecoratorNames(), ...oldPayloadNames()]) exportSet.add(n);
}
