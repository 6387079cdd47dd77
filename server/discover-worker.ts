// Runs one discovery of hooksmith.extraAgentRoots on a worker thread (bundled as
// dist/discover-worker.js): a folder walk is synchronous file-system work, and on the server's
// own thread it would hold every hover and diagnostic behind it.
import { parentPort, workerData } from 'node:worker_threads';
import { discover } from '../runtime/workspace/discovery';

const roots = (workerData as { roots: string[] }).roots;
parentPort?.postMessage(discover(roots));
