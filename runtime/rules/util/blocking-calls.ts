// The known blocking functions blocking-call reports, each with its asyncio alternative.
// Matched on the fully qualified name the call resolves to through the module's imports;
// builtins (no import) are matched on the bare name when the module does not rebind it.
import { firstSegment } from '../../python/module-facts';

export interface BlockingCall {
  /** Fully qualified name ("time.sleep") or a builtin's bare name ("input"). */
  name: string;
  builtin?: boolean;
  /** What to use instead. */
  instead: string;
}

const HTTP =
  'an async HTTP client: `async with httpx.AsyncClient() as client: await client.get(...)` (or aiohttp)';
const SUBPROCESS = '`await asyncio.create_subprocess_exec(...)`';

export const BLOCKING_CALLS: readonly BlockingCall[] = [
  { name: 'time.sleep', instead: '`await asyncio.sleep(...)`' },
  ...['get', 'post', 'put', 'delete', 'patch', 'head', 'options', 'request'].map((m) => ({
    name: `requests.${m}`,
    instead: HTTP,
  })),
  { name: 'urllib.request.urlopen', instead: HTTP },
  { name: 'subprocess.run', instead: SUBPROCESS },
  { name: 'subprocess.call', instead: SUBPROCESS },
  { name: 'subprocess.check_call', instead: SUBPROCESS },
  { name: 'subprocess.check_output', instead: SUBPROCESS },
  { name: 'os.system', instead: '`await asyncio.create_subprocess_shell(...)`' },
  { name: 'socket.create_connection', instead: '`await asyncio.open_connection(...)`' },
  {
    name: 'input',
    builtin: true,
    instead: 'nothing: a hook has no terminal; take the value from the payload or configuration',
  },
];

const byName = new Map(BLOCKING_CALLS.filter((c) => !c.builtin).map((c) => [c.name, c]));
const builtins = new Map(BLOCKING_CALLS.filter((c) => c.builtin).map((c) => [c.name, c]));

/** Modules a qualified blocking call starts with ("time", "requests", …): without an import of one, none can match. */
export const BLOCKING_ROOTS: readonly string[] = [...new Set([...byName.keys()].map(firstSegment))];

/** Builtins' names ("input"): a call of one is written as that bare name, so the source text contains it. */
export const BLOCKING_BUILTINS: readonly string[] = [...builtins.keys()];

/** `locallyBound` is asked only for a builtin's name (a lookup per call otherwise). */
export function findBlockingCall(
  qualified: string | undefined,
  bareText: string,
  locallyBound: (name: string) => boolean,
): BlockingCall | undefined {
  if (qualified !== undefined) return byName.get(qualified);
  const builtin = builtins.get(bareText);
  return builtin && !locallyBound(bareText) ? builtin : undefined;
}
