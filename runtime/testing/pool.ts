// A fixed number of workers taking items from one queue in order (`hooksmith test -j N`, the
// Testing view's Run All). Each worker owns what it is given (a host) for all the items it takes;
// the results keep the order of the items, whichever worker finished first.
import * as os from 'node:os';

/** -j's default: the cores this process may use. */
export const defaultJobs = (): number => Math.max(1, os.availableParallelism());

/**
 * Runs `work` over `items` with at most `workers` at once. `worker(i)` is called once per worker
 * that takes an item (a host is started only when there is a case for it); `release` after its last.
 */
export async function runPool<I, W, R>(
  items: readonly I[],
  workers: number,
  worker: (index: number) => W,
  work: (w: W, item: I) => Promise<R>,
  release?: (w: W) => Promise<void>,
): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const loop = async (index: number) => {
    if (next >= items.length) return;
    const w = worker(index);
    try {
      while (next < items.length) {
        const at = next++;
        out[at] = await work(w, items[at]!);
      }
    } catch (err) {
      next = items.length; // the others stop after their current item
      throw err;
    } finally {
      await release?.(w);
    }
  };
  const n = Math.max(1, Math.min(workers, items.length));
  await Promise.all(Array.from({ length: n }, (_, i) => loop(i)));
  return out;
}
