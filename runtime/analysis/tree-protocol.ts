// Messages between the main thread (tree-helper.ts) and the tree worker (tree-worker.ts), which
// only parses: tree-sitter's parse and the read of its tree into SyntaxTree columns, the part of
// a check that needs no model and no rules. A tree's storage crosses threads as its one ArrayBuffer,
// transferred (SyntaxTree.takeColumns, unpackColumns).
import type { MessagePort } from 'node:worker_threads';
import type { SyntaxIssue } from '../python/model';

/** Claim states of a file in the shared claims array. */
export const UNCLAIMED = 0;
export const MAIN = 1;
export const WORKER = 2;

export interface TreeJobs {
  type: 'jobs';
  /** The texts to parse, in the order the main thread checks them. */
  texts: string[];
  /**
   * One Int32 per text (UNCLAIMED, MAIN, WORKER): the main thread claims from the front, the
   * worker from the back, each with compareExchange, so every text is parsed once.
   */
  claims: SharedArrayBuffer;
  /** Int32 [0]: trees posted so far, notified after each (the main thread may Atomics.wait on it). */
  posted: SharedArrayBuffer;
}

/**
 * Sent first: the port trees are posted on. The main thread reads it synchronously
 * (receiveMessageOnPort) between files, which a Worker's own channel does not allow.
 */
export interface TreePort {
  type: 'port';
  port: MessagePort;
}

export type ToTreeWorker = TreePort | TreeJobs;

export interface TreeNames {
  /** Type name by SyntaxTree typeOf value, field name by field value: the worker's reader's. */
  typeNames: readonly string[];
  fieldNames: readonly (string | null)[];
}

export type FromTreeWorker =
  /** One parsed text; the first tree also carries the names its columns refer to. */
  | {
      type: 'tree';
      index: number;
      buffer: ArrayBuffer;
      capacity: number;
      size: number;
      substitute?: SyntaxIssue;
      names?: TreeNames;
    }
  /** The worker claims nothing more. */
  | { type: 'done' }
  /** It could not parse (its WASM failed to load): the main thread parses everything. */
  | { type: 'failed'; message: string };
