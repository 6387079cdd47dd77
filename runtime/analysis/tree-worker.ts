// The tree worker (worker_threads): parses the check's texts from the back of the list while the
// main thread works from the front, and posts each tree as SyntaxTree columns. The main thread
// builds the models and runs the rules (it keeps the JIT-warm code for those); this thread only
// runs tree-sitter's WASM and the tree read, so it starts and warms up cheaply.
// Protocol: runtime/analysis/tree-protocol.ts.
import { parentPort, type MessagePort } from 'node:worker_threads';
import { linuxThreadId, lowerPriority } from '../priority';
import { initParser, parse, substituteReason } from '../python/parser';
import { columnsBuffer, type SyntaxTree } from '../python/syntax-node';
import { toSyntaxTree } from '../python/syntax-tree';
import { UNCLAIMED, WORKER, type FromTreeWorker, type ToTreeWorker, type TreeJobs } from './tree-protocol';

const port = parentPort;
if (port) {
  // A helper: the main thread (models, rules) is the check's critical path, so on Linux, where a
  // thread has its own priority, this one yields to it.
  const tid = linuxThreadId();
  if (tid !== undefined) lowerPriority(tid);
  let trees: MessagePort | undefined;
  /** Counts a posted message and wakes the main thread if it waits for one (TreeHelper.awaitTree). */
  const announce = (posted: Int32Array) => {
    Atomics.add(posted, 0, 1);
    Atomics.notify(posted, 0);
  };
  const post = (m: FromTreeWorker, transfer: ArrayBuffer[] = []) => (trees ?? port).postMessage(m, transfer);
  // Load the WASM at once: the main thread is still discovering and reading files.
  const ready = initParser();
  ready.catch(() => undefined);

  const work = async (jobs: TreeJobs): Promise<void> => {
    await ready;
    const claims = new Int32Array(jobs.claims);
    const posted = new Int32Array(jobs.posted);
    let first = true;
    for (let i = jobs.texts.length - 1; i >= 0; i--) {
      // Claimed by the main thread: so is everything before it (it claims in order).
      if (Atomics.compareExchange(claims, i, UNCLAIMED, WORKER) !== UNCLAIMED) break;
      const text = jobs.texts[i] as string;
      const tree = parse(text);
      let syntax: SyntaxTree;
      let substitute;
      try {
        substitute = substituteReason(tree);
        syntax = toSyntaxTree(tree, text);
      } finally {
        tree.delete();
      }
      const { size, typeNames, fieldNames } = syntax;
      const columns = syntax.takeColumns();
      if (!columns) continue;
      const buffer = columnsBuffer(columns);
      post(
        {
          type: 'tree',
          index: i,
          buffer,
          capacity: columns.capacity,
          size,
          ...(substitute ? { substitute } : {}),
          ...(first ? { names: { typeNames, fieldNames } } : {}),
        },
        [buffer],
      );
      first = false;
      announce(posted);
    }
    post({ type: 'done' });
    announce(posted);
  };

  port.on('message', (m: ToTreeWorker) => {
    if (m.type === 'port') {
      trees = m.port;
      return;
    }
    work(m).catch((err: unknown) => {
      post({ type: 'failed', message: err instanceof Error ? err.message : String(err) });
      announce(new Int32Array(m.posted));
    });
  });
}
