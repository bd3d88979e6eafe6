/**
 * The syntax tier's worker threads: a cold workspace's files are parsed on every core
 * (node:worker_threads, one tree-sitter runtime per worker) while the main thread stays free for
 * interactive calls. Files go out in small batches to whichever worker is free; answers come back
 * per batch. Workers are started for one bulk run and ended when it is done: a changed file later
 * is parsed in the process itself (milliseconds), and idle workers would only hold memory.
 */
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { FileEntry } from '../../core/catalog.js';
import { LspgateError } from '../../errors/errors.js';
import { workerScript } from '../../util/worker-script.js';

export interface SyntaxJob {
  abs: string;
  rel: string;
}

export interface SyntaxBatch {
  id: number;
  root: string;
  maxFileBytes: number;
  files: SyntaxJob[];
}

export type SyntaxAnswer = { rel: string; entry: FileEntry; error?: undefined } | { rel: string; entry?: undefined; error: { code: string; message: string } };

/** Files per message: enough to keep a worker busy between round trips, few enough to spread the work. */
const BATCH = 8;

export interface PoolOptions {
  root: string;
  maxFileBytes: number;
  /** Workers to start (default: the cores, at most 4). */
  workers?: number;
  signal?: AbortSignal;
}

/** Catalogs `jobs` from syntax on worker threads; `onAnswer` gets each file's entry or error as it comes. */
export async function parseInWorkers(jobs: SyntaxJob[], opts: PoolOptions, onAnswer: (a: SyntaxAnswer) => void): Promise<void> {
  if (jobs.length === 0) return;
  const count = Math.max(1, Math.min(opts.workers ?? Math.min(availableParallelism(), 4), Math.ceil(jobs.length / BATCH)));
  const script = workerScript(import.meta.url, 'syntax-worker');
  let next = 0;
  let id = 0;
  const run = (worker: Worker) =>
    new Promise<void>((resolve, reject) => {
      const send = () => {
        if (opts.signal?.aborted) return reject(new LspgateError('CANCELLED', 'cataloging was cancelled'));
        if (next >= jobs.length) return resolve();
        const files = jobs.slice(next, next + BATCH);
        next += files.length;
        worker.postMessage({ id: id++, root: opts.root, maxFileBytes: opts.maxFileBytes, files } satisfies SyntaxBatch);
      };
      worker.on('message', (m: { answers: SyntaxAnswer[] }) => {
        for (const a of m.answers) onAnswer(a);
        send();
      });
      worker.once('error', (e) => reject(new LspgateError('INTERNAL', `a syntax worker failed: ${e.message}`, {}, { cause: e })));
      worker.once('exit', (code) => (next < jobs.length ? reject(new LspgateError('INTERNAL', `a syntax worker exited (${code})`)) : resolve()));
      send();
    });
  // stdout belongs to the MCP and sidecar protocols: a worker's own streams are taken and dropped
  const workers = Array.from({ length: count }, () => {
    const w = new Worker(script, { stdout: true, stderr: true });
    w.stdout.resume();
    w.stderr.resume();
    return w;
  });
  try {
    await Promise.all(workers.map(run));
  } finally {
    await Promise.all(workers.map((w) => w.terminate()));
  }
}
