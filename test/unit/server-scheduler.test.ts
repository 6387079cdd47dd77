// #42 item 4, no flood: the server's scheduler validates one module at a time per lane, an edited
// buffer before opened ones, opened ones in the order they were opened, and the background (the
// workspace scan, revalidations) only while nothing in the foreground waits or runs. Order only:
// how soon the first diagnostics arrive is measured by `npm run bench` (bench/lsp-flood.ts).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Scheduler } from '../../server/scheduler';

const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** A scheduler whose validation of a key takes `steps` turns of the event loop, recording starts and ends. */
function recorder(steps = 3) {
  const events: string[] = [];
  let inFlight = 0;
  let most = 0;
  const scheduler = new Scheduler(
    async (key) => {
      events.push(`start ${key}`);
      most = Math.max(most, ++inFlight);
      for (let i = 0; i < steps; i++) await turn();
      inFlight--;
      events.push(`end ${key}`);
    },
    () => undefined,
  );
  return { scheduler, events, most: () => most };
}

describe('server scheduler: what is validated first', () => {
  it('opened documents run one at a time, in the order opened, before the background', async () => {
    const { scheduler, events } = recorder();
    const all = [
      ...['scan1', 'scan2', 'scan3'].map((k) => scheduler.runNow(k, 'background')),
      ...['open1', 'open2'].map((k) => scheduler.runNow(k, 'open')),
    ];
    await Promise.all(all);
    const at = (e: string) => events.indexOf(e);
    // The first scanned module had started before the opens came: it goes on (it yields between
    // its steps); nothing else of the background starts before the opened documents are done.
    assert.equal(events[0], 'start scan1');
    assert.ok(at('end open1') < at('start open2'), events.join(', '));
    assert.ok(at('end open2') < at('start scan2'), events.join(', '));
    assert.ok(at('end scan2') < at('start scan3'), events.join(', '));
  });

  it('an edited buffer goes before opened ones still waiting', async () => {
    const { scheduler, events } = recorder();
    const open = ['a', 'b', 'c'].map((k) => scheduler.runNow(k, 'open'));
    await turn(); // `a` runs; `b` and `c` wait
    const edit = scheduler.runNow('c', 'edit');
    await Promise.all([...open, edit]);
    const starts = events.filter((e) => e.startsWith('start')).map((e) => e.slice(6));
    assert.deepEqual(starts, ['a', 'c', 'b']);
  });

  it('a key asked for twice while it waits runs once, at the more urgent place', async () => {
    const { scheduler, events } = recorder();
    const first = scheduler.runNow('busy', 'open');
    const waits = [scheduler.runNow('x', 'background'), scheduler.runNow('y', 'open')];
    const again = scheduler.runNow('x', 'open');
    await Promise.all([first, ...waits, again]);
    const starts = events.filter((e) => e.startsWith('start')).map((e) => e.slice(6));
    // `x` keeps its place in the queue (before `y`), now among the opened documents.
    assert.deepEqual(starts, ['busy', 'x', 'y']);
  });

  it('never two validations of one key at once, and at most one per lane', async () => {
    const { scheduler, most, events } = recorder(2);
    const runs = [];
    for (let i = 0; i < 5; i++) {
      runs.push(scheduler.runNow('k', 'open'), scheduler.runNow('bg', 'background'));
      await turn();
    }
    await Promise.all(runs);
    assert.ok(most() <= 2, `at most a foreground and a background run at once (${most()})`);
    let open = 0;
    for (const e of events.filter((x) => x.endsWith(' k'))) {
      open += e.startsWith('start') ? 1 : -1;
      assert.ok(open <= 1, events.join(', '));
    }
  });

  it('settle (a pull) moves a key waiting in the background ahead of the rest', async () => {
    const { scheduler, events } = recorder();
    const scan = ['s1', 's2', 's3', 's4'].map((k) => scheduler.runNow(k, 'background'));
    await turn(); // s1 runs
    await scheduler.settle('s4');
    assert.ok(events.includes('end s4') && !events.includes('start s2'), events.join(', '));
    await Promise.all(scan);
  });

  it('after stop, queued work is dropped and its waiters resolve', async () => {
    const { scheduler, events } = recorder();
    const runs = ['a', 'b', 'c'].map((k) => scheduler.runNow(k, 'open'));
    scheduler.stop();
    await Promise.all(runs);
    assert.deepEqual(
      events.filter((e) => e.startsWith('start')),
      ['start a'],
    );
    await scheduler.runNow('d');
    assert.ok(!events.includes('start d'));
  });
});
