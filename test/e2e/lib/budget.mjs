// How long one pass may take, and the line that closes a run.
//
// The per-test timeouts (mocha's, --test-timeout) do the work: a hung test fails on its own and
// the next one runs. The pass's budget is only a backstop for a suite that stops making progress
// (a wedged extension host): a start-up allowance until the suite has counted its tests, then
// start-up + one per-test timeout for each test, never beyond CI's own job limit. A fixed
// --timeout still caps the whole pass when given.

/** CI (.ci/run) stops a job at 90 minutes; a pass ends before that so its summary is printed. */
export const CI_LIMIT_MS = 85 * 60_000;

/**
 * The pass's budget in ms. `total` is the number of tests the suite counted (results.json), or
 * undefined before it has loaded its files.
 */
export function passBudgetMs({ fixedMs, startupMs, testTimeoutMs, total }) {
  if (fixedMs) return fixedMs;
  if (total === undefined || total === null) return Math.min(startupMs, CI_LIMIT_MS);
  return Math.min(startupMs + total * testTimeoutMs, CI_LIMIT_MS);
}

/**
 * A pass's clock: `left()` is recomputed from the suite's latest count, so a budget set before the
 * tests were counted grows with them.
 */
export function passClock(opts, readTotal, now = Date.now) {
  const start = now();
  const budget = () =>
    passBudgetMs({
      fixedMs: opts.timeoutMs,
      startupMs: opts.startupTimeoutMs,
      testTimeoutMs: opts.testTimeoutMs,
      total: readTotal(),
    });
  return { budget, left: () => Math.max(1, start + budget() - now()) };
}

/** Resolves `{ exitCode: 1, timedOut: true }` once the clock runs out (checked every `everyMs`). */
export function whenOutOfTime(clock, everyMs = 1000) {
  let timer;
  const promise = new Promise((resolve) => {
    const check = () => {
      const left = clock.left();
      if (left <= 1) resolve({ exitCode: 1, timedOut: true });
      else timer = setTimeout(check, Math.min(left, everyMs));
    };
    check();
  });
  return { promise, cancel: () => clearTimeout(timer) };
}

/**
 * Tests of a pass that never ran: counted minus finished, minus the one it stopped in (reported
 * as failed by the launcher). Undefined when the suite never counted its tests.
 */
export function notRunCount(results) {
  if (!results || typeof results.total !== 'number') return undefined;
  const finished = results.passed + results.failed + results.pending + (results.current ? 1 : 0);
  return Math.max(0, results.total - finished);
}

/** The closing line: `N passed, N failed`, and `, N not run` when a pass was cut short. */
export function summaryLine({ passed, failed, notRun, unknownNotRun }) {
  let line = `${passed} passed, ${failed} failed`;
  if (notRun > 0) line += `, ${notRun} not run`;
  if (unknownNotRun)
    line += `, tests not run: unknown (${unknownNotRun} pass(es) stopped before counting them)`;
  return line;
}
