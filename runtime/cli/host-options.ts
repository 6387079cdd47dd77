// The options of every command that runs hooks (run, simulate, test, fuzz), read once at the CLI's
// entry into one typed object that main.ts hands to the command, which passes it to the runners it
// creates. They are not written to process.env: the documented environment variables
// (HOOKSMITH_MEMORY_LIMIT_MB, HOOKSMITH_CAYU_SAFETY_STOP_S, HOOKSMITH_CAYU_ENGINE,
// HOOKSMITH_MANTLE_ENGINE) stay inputs, below
// these options. A leaf apart from the option parsers: validating loads no engine.
import {
  CAYU_SAFETY_STOP_ENV,
  MAX_CAYU_SAFETY_STOP_S,
  parseSafetyStopSeconds,
} from '../engine/cayu-safety-stop';
import { CAYU_ENGINE_ENV, CAYU_ENGINES, parseCayuEngine, type CayuEngine } from '../engine/engine-mode';
import { MANTLE_ENGINE_ENV, MANTLE_ENGINES, parseMantleEngine } from '../engine/mantle-engine';

export interface HostOptions {
  /** --memory-limit: the Python host's address-space limit in MiB (0: none). */
  memoryLimitMb?: number;
  /** --cayu-safety-stop: Hooksmith's own stop for a Cayu hook that never returns, in seconds. */
  cayuSafetyStopS?: number;
  /** --cayu-engine: who plays Cayu phases. */
  cayuEngine?: CayuEngine;
  /** --mantle-engine: who plays Mantle hook calls. */
  mantleEngine?: CayuEngine;
}

interface HostOption {
  name: string;
  /** The documented variable that sets it below the option (checked by invalidHostEnv). */
  env: string;
  field: keyof HostOptions;
  expected: string;
  /** Sets the option's field from its value; false when the value is not one. */
  take: (value: string, into: HostOptions) => boolean;
}

const HOST_OPTIONS: readonly HostOption[] = [
  {
    name: '--memory-limit',
    env: 'HOOKSMITH_MEMORY_LIMIT_MB',
    field: 'memoryLimitMb',
    expected: 'whole MiB (decimal digits, 0 for no limit)',
    take: (v, into) => /^\d{1,7}$/.test(v) && ((into.memoryLimitMb = Number(v)), true),
  },
  {
    name: '--cayu-safety-stop',
    env: CAYU_SAFETY_STOP_ENV,
    field: 'cayuSafetyStopS',
    expected: `whole seconds from 1 to ${MAX_CAYU_SAFETY_STOP_S} (decimal digits)`,
    take: (v, into) => (into.cayuSafetyStopS = parseSafetyStopSeconds(v)) !== undefined,
  },
  {
    name: '--cayu-engine',
    env: CAYU_ENGINE_ENV,
    field: 'cayuEngine',
    expected: CAYU_ENGINES.join('|'),
    take: (v, into) => (into.cayuEngine = parseCayuEngine(v)) !== undefined,
  },
  {
    name: '--mantle-engine',
    env: MANTLE_ENGINE_ENV,
    field: 'mantleEngine',
    expected: MANTLE_ENGINES.join('|'),
    take: (v, into) => (into.mantleEngine = parseMantleEngine(v)) !== undefined,
  },
];

/** Takes the host options (`--name VALUE` or `--name=VALUE`) out of `args`: the rest and the options, or the error. */
export function takeHostOptions(args: readonly string[]): { args: string[]; options: HostOptions } | string {
  const out: string[] = [];
  const options: HostOptions = {};
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--') {
      out.push(...args.slice(i));
      break;
    }
    const option = HOST_OPTIONS.find((o) => a === o.name || a.startsWith(`${o.name}=`));
    if (!option) {
      out.push(a);
      continue;
    }
    const value = a === option.name ? args[++i] : a.slice(option.name.length + 1);
    if (value === undefined || !option.take(value, options))
      return `${option.name} takes ${option.expected}, got ${JSON.stringify(value ?? '')}`;
  }
  return { args: out, options };
}

/**
 * A host option's variable set in the environment holding a value the option would refuse (#44
 * item 6): the same usage error, never taken as the default (a typo must not change who plays).
 * An option given on the command line wins over its variable; an empty variable is unset.
 */
export function invalidHostEnv(given: HostOptions): string | undefined {
  for (const o of HOST_OPTIONS) {
    const value = process.env[o.env];
    if (value === undefined || value === '' || given[o.field] !== undefined || o.take(value, {})) continue;
    return `${o.env} (${o.name}) takes ${o.expected}, got ${JSON.stringify(value)}`;
  }
  return undefined;
}

/**
 * The host options a command's runners take (createHookRunner, runCases): the memory limit, and
 * who plays and the safety stop as functions read at each run, as the editor's settings are.
 */
export function runnerHostOptions(host: HostOptions): {
  memoryLimitMb?: number;
  cayuEngine: () => string | undefined;
  cayuSafetyStopS: () => number | undefined;
  mantleEngine: () => string | undefined;
} {
  return {
    ...(host.memoryLimitMb !== undefined ? { memoryLimitMb: host.memoryLimitMb } : {}),
    cayuEngine: () => host.cayuEngine,
    cayuSafetyStopS: () => host.cayuSafetyStopS,
    mantleEngine: () => host.mantleEngine,
  };
}
