// Language server start-up over stdio (issue #30 item 11): from spawning `node dist/server.js
// --stdio` to the `initialize` answer, and to the first diagnostics of a module opened right
// after `initialized` (an agent of a few modules in the workspace). Median and worst of RUNS
// cold starts; the server is the bundled one (the numbers are those of the shipped code).
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { cpuMsOf, LspClient, workspace } from '../test/lsp/lsp-client';
import { hookModuleSource } from './generate';
import { line, ms, percentile } from './stats';

const RUNS = 15;

export interface StartTimes {
  initializeMs: number[];
  firstDiagnosticsMs: number[];
  /** The server's own CPU time (user + system) at those two points: what a loaded machine does not change. */
  initializeCpuMs: number[];
  firstDiagnosticsCpuMs: number[];
}

export async function measureStartup(runs = RUNS): Promise<StartTimes> {
  const text = hookModuleSource(160);
  const ws = workspace({
    'agent/hooks/main.py': text,
    'agent/hooks/extra.py': hookModuleSource(80),
    'agent/hooks/more.py': hookModuleSource(80),
  });
  const out: StartTimes = {
    initializeMs: [],
    firstDiagnosticsMs: [],
    initializeCpuMs: [],
    firstDiagnosticsCpuMs: [],
  };
  try {
    for (let i = 0; i < runs; i++) {
      const t0 = performance.now();
      const c = await LspClient.start({ folders: [ws.dir] });
      out.initializeMs.push(c.initializedAt - t0);
      out.initializeCpuMs.push(c.initializeCpuMs);
      const uri = await c.open(ws.path('agent/hooks/main.py'), text);
      await c.waitFor(uri, (p) => p.version === 1, 30000);
      out.firstDiagnosticsMs.push(performance.now() - t0);
      out.firstDiagnosticsCpuMs.push(cpuMsOf(c.proc.pid));
      await c.stop();
    }
  } finally {
    ws.cleanup();
  }
  return out;
}

export async function benchStartup(): Promise<string[]> {
  const t = await measureStartup();
  const init = percentile(t.initializeMs, 50);
  const first = percentile(t.firstDiagnosticsMs, 50);
  return [
    line('spawn → initialize answered, median', ms(init), '≤ 150 ms', init <= 150),
    line('spawn → initialize answered, worst', ms(Math.max(...t.initializeMs))),
    line('spawn → first diagnostics of the opened module, median', ms(first), '≤ 500 ms', first <= 500),
    line('spawn → first diagnostics of the opened module, worst', ms(Math.max(...t.firstDiagnosticsMs))),
    line('  server CPU until initialize answered, median', ms(percentile(t.initializeCpuMs, 50))),
    line('  server CPU until first diagnostics, median', ms(percentile(t.firstDiagnosticsCpuMs, 50))),
    line('  machine load average (1 min)', loadavg()[0]!.toFixed(1)),
  ];
}

if (require.main === module && /lsp-startup\.[jt]s$/.test(process.argv[1] ?? '')) {
  void benchStartup().then((lines) => {
    for (const l of lines) console.log(l);
    process.exit(0);
  });
}
