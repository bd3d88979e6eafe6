/**
 * Work that may be heavy runs in a worker thread (node:worker_threads), so that one client's large
 * input never holds the event loop that every other client's calls share: the worker gets a memory
 * cap (its V8 heap; over it the worker dies, not the process) and a deadline (then it is
 * terminated). Failures come back coded: TIMEOUT, LIMIT_EXCEEDED (out of memory), INTERNAL.
 * A worker per task: tasks are rare (results are cached by content) and a fresh heap is what makes
 * the memory cap mean something.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { type TransferListItem, Worker } from 'node:worker_threads';

import { LspgateError } from '../errors/errors.js';

/**
 * The compiled script of a worker module beside `metaUrl`: `name.js` in the same folder. Run from
 * the TypeScript sources (the test runner loads src/ directly), a worker cannot load a `.ts` file on
 * Node 20, so the build's copy under dist/ is used: tests build first.
 */
export function workerScript(metaUrl: string, name: string): string {
  const here = fileURLToPath(new URL(`./${name}.js`, metaUrl));
  if (!metaUrl.endsWith('.ts')) return here;
  const built = here.replace(/([\\/])src([\\/])(?!.*[\\/]src[\\/])/, '$1dist$1src$2');
  if (!existsSync(built)) throw new LspgateError('INTERNAL', `worker script ${built} is missing: run npm run build`);
  return built;
}

export interface WorkerTask {
  /** What the work is, for error messages ("parsing coverage.out"). */
  what: string;
  deadlineMs: number;
  maxHeapMb: number;
  transferList?: readonly TransferListItem[];
}

/** Runs `script` with `data` as its workerData and resolves with the first message it posts. */
export function runWorker<T>(script: string, data: unknown, task: WorkerTask): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const worker = new Worker(script, {
      workerData: data,
      transferList: task.transferList ? [...task.transferList] : [],
      resourceLimits: { maxOldGenerationSizeMb: task.maxHeapMb },
      stdout: false,
      stderr: false,
    });
    let settled = false;
    const settle = (f: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      f();
      void worker.terminate();
    };
    const timer = setTimeout(
      () => settle(() => reject(new LspgateError('TIMEOUT', `${task.what} did not finish within ${task.deadlineMs} ms`, { timeoutMs: task.deadlineMs }))),
      task.deadlineMs,
    );
    worker.once('message', (m: T) => settle(() => resolve(m)));
    worker.once('error', (e: Error & { code?: string }) =>
      settle(() =>
        reject(
          e.code === 'ERR_WORKER_OUT_OF_MEMORY'
            ? new LspgateError('LIMIT_EXCEEDED', `${task.what} needed more than ${task.maxHeapMb} MB of memory`, {
                limit: 'worker_heap_mb',
                value: task.maxHeapMb,
              })
            : new LspgateError('INTERNAL', `${task.what} failed: ${e.message}`, {}, { cause: e }),
        ),
      ),
    );
    worker.once('exit', (code) => settle(() => reject(new LspgateError('INTERNAL', `${task.what}: the worker exited (${code}) without an answer`))));
  });
}
