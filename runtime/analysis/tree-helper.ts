// The main thread's side of the tree worker (tree-worker.ts). On two cores a full check worker
// costs as much as it saves (its isolate must warm up the model and rule code again), but
// tree-sitter's parse is 55–60% of a file's cost and needs none of that code: the worker parses
// texts from the back of the list while the main thread parses from the front, and the main
// thread builds the models of the worker's trees when it reaches them. Every text is claimed by
// exactly one thread (compareExchange on a shared array); should the worker fail, lag or die, the
// main thread parses the text itself, so the answer never depends on the worker.
import { performance } from 'node:perf_hooks';
import { MessageChannel, receiveMessageOnPort, type MessagePort, type Worker } from 'node:worker_threads';
import { modelOfSyntax } from '../python/build-model';
import type { HookModule } from '../python/model';
import { SyntaxTree, unpackColumns } from '../python/syntax-node';
import { MAIN, UNCLAIMED, type FromTreeWorker, type TreeJobs, type TreeNames } from './tree-protocol';
import { findWorkerScript, startWorker } from './worker-script';

/** How long the main thread waits for a tree the worker claimed before parsing the text itself. */
const WAIT_MS = 250;

type TreeMessage = Extract<FromTreeWorker, { type: 'tree' }>;

/** dist/tree-worker.js beside the bundle, or tree-worker.ts from source (see findWorkerScript). */
export function treeWorkerScript(dir = __dirname): string | undefined {
  return findWorkerScript('tree-worker', dir);
}

export class TreeHelper {
  private readonly worker: Worker;
  private readonly port: MessagePort;
  private claims: Int32Array | undefined;
  private posted: Int32Array | undefined;
  /** Messages taken off the port so far (trees, then done or failed). */
  private drained = 0;
  private finished = false;
  private names: TreeNames | undefined;
  private readonly trees = new Map<number, TreeMessage>();
  /** Texts whose model was built from the worker's tree. */
  fromWorker = 0;

  constructor(
    script: string,
    private readonly log: (m: string) => void,
  ) {
    this.worker = startWorker(script);
    this.worker.on('error', (err) => {
      this.finished = true;
      log(`[hooksmith] tree worker failed (the main thread parses the rest): ${err.message}`);
    });
    const { port1, port2 } = new MessageChannel();
    this.port = port1;
    this.worker.postMessage({ type: 'port', port: port2 }, [port2]);
  }

  /** Hands over the texts, in the order the main thread will ask for their models. */
  start(texts: string[]): void {
    const claims = new SharedArrayBuffer(4 * texts.length);
    const posted = new SharedArrayBuffer(4);
    this.claims = new Int32Array(claims);
    this.posted = new Int32Array(posted);
    const jobs: TreeJobs = { type: 'jobs', texts, claims, posted };
    this.worker.postMessage(jobs);
  }

  /**
   * The model of text `index` built from the worker's tree; undefined when the main thread should
   * parse the text itself (it claimed it now, or the worker failed or is too slow with it).
   */
  modelFor(index: number, text: string, path: string): HookModule | undefined {
    const claims = this.claims;
    if (!claims || index >= claims.length) return undefined;
    if (Atomics.compareExchange(claims, index, UNCLAIMED, MAIN) === UNCLAIMED) return undefined;
    const tree = this.awaitTree(index);
    if (!tree || !this.names) return undefined;
    const syntax = new SyntaxTree(text, this.names.typeNames, this.names.fieldNames, {
      columns: unpackColumns(tree.buffer, tree.capacity),
      size: tree.size,
    });
    try {
      const module = modelOfSyntax(syntax, text, path, tree.substitute);
      this.fromWorker++;
      return module;
    } finally {
      syntax.release();
    }
  }

  /** Resolves true once the worker has claimed no more texts and posted all it parsed (tests). */
  async settled(timeoutMs: number): Promise<boolean> {
    const deadline = performance.now() + timeoutMs;
    while (!this.finished && performance.now() < deadline) {
      this.drain();
      await new Promise((r) => setTimeout(r, 10));
    }
    return this.finished;
  }

  /** Stops the worker (it has nothing left to do, or the check failed). */
  close(): void {
    this.port.close();
    void this.worker.terminate();
  }

  private awaitTree(index: number): TreeMessage | undefined {
    const posted = this.posted as Int32Array;
    const deadline = performance.now() + WAIT_MS;
    for (;;) {
      this.drain();
      const tree = this.trees.get(index);
      if (tree) {
        this.trees.delete(index);
        return tree;
      }
      const left = deadline - performance.now();
      if (this.finished) return undefined;
      if (left <= 0) {
        // Stuck or dead (a crash is not seen while this thread waits): stop asking it at all,
        // or every file it claimed would cost another wait.
        this.finished = true;
        this.log(
          `[hooksmith] tree worker gave no tree within ${WAIT_MS} ms: the main thread parses the rest`,
        );
        return undefined;
      }
      // Sleep until the worker posts again (it notifies after each message).
      Atomics.wait(posted, 0, this.drained, left);
    }
  }

  private drain(): void {
    for (let got = receiveMessageOnPort(this.port); got; got = receiveMessageOnPort(this.port)) {
      const m = got.message as FromTreeWorker;
      this.drained++;
      if (m.type === 'tree') {
        if (m.names) this.names = m.names;
        this.trees.set(m.index, m);
      } else {
        this.finished = true;
        if (m.type === 'failed')
          this.log(`[hooksmith] tree worker failed (the main thread parses the rest): ${m.message}`);
      }
    }
  }
}
