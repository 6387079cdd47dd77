// The Python host's numbers (host-timings.ts) as bench lines.
import { benchHost } from './host-timings';
import { line, ms } from './stats';

export async function benchHostLines(): Promise<string[]> {
  const r = await benchHost({ calls: 1000 });
  return [
    line('python', r.python),
    line('host cold start (spawn → hello)', ms(r.coldStartMs)),
    line('host restart', ms(r.restartMs)),
    line('first invoke (import the module)', ms(r.firstInvokeMs)),
    line(`warm run-hook round trip, p50 (${r.calls} calls)`, ms(r.warmP50Ms)),
    line('warm run-hook round trip, p99', ms(r.warmP99Ms)),
    line('beyond the hook body, p50', ms(r.overheadP50Ms), '≤ 5 ms'),
    line('beyond the hook body, p99', ms(r.overheadP99Ms), '≤ 5 ms'),
    line('beyond the hook body, an app’s later call (app), p50', ms(r.appCallOverheadP50Ms)),
    line('beyond the hook body, an app’s later call (app), p99', ms(r.appCallOverheadP99Ms)),
  ];
}
