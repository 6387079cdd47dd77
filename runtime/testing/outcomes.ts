// The outcomes that mean a hook misbehaved (`run` and `simulate` exit 1; `no_crashes` fails).
import type { Outcome } from '../engine/api';

export const FAILED_OUTCOMES: ReadonlySet<Outcome> = new Set([
  'crashed',
  'timed-out',
  'invalid-return',
  'ignored-signal',
]);
