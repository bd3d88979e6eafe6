/**
 * Syntax work asked for on demand — a file's structure when an operation loads it, the pattern scan,
 * complexity, import scan, chunk bodies, declarations at a git ref — runs here, in worker threads,
 * never on the thread that answers every client: a 100,000-deep file took 29 s to read for its
 * structure, and every other client waited that long. One entry for every feature: a job names an
 * exported async function of a compiled module (the caller's own, by workerScript) and its arguments
 * (structured-clonable: text in, plain data out); the worker imports the module and calls it.
 *
 * Each job is bounded like a catalog parse: a deadline from the moment its grammar is loaded (the
 * work the file's content decides) and a heap cap per worker (`resourceLimits`). Over either, the
 * worker is terminated and replaced and the job fails TIMEOUT or LIMIT_EXCEEDED naming the file and
 * the limit. Workers are kept between jobs (each holds a tree-sitter runtime and its grammars) and
 * ended when idle; they never hold the process open.
 */
import { availableParallelism } from 'node:os';
import { MessageChannel, type MessagePort, receiveMessageOnPort, Worker } from 'node:worker_threads';

import { type ErrorCode, LspgateError } from '../errors/errors.js';
import { workerScript } from '../util/worker-script.js';

/** What a syntax job may take, from the workspace's limits (limits.parseTimeoutMs, limits.parseHeapMb). */
export interface ParseBounds {
  parseTimeoutMs: number;
  parseHeapMb: number;
}

/** The configuration's defaults, for a caller that has no workspace limits at hand. */
export const DEFAULT_PARSE_BOUNDS: ParseBounds = { parseTimeoutMs: 20_000, parseHeapMb: 512 };

export interface SyntaxJob {
  /** The compiled module holding the function (workerScript(import.meta.url, name)). */
  module: string;
  /** The name of an exported async function of that module. */
  fn: string;
  args: unknown[];
  /** The file the job reads (workspace-relative), named by its errors. */
  file: string;
  /** The grammar to load before the deadline starts (loading is fixed work, whatever the file holds). */
  grammar?: string;
  /** An exported function of the module called with the same arguments before the deadline starts (compiling queries). */
  prepare?: string;
}

/** What a job worker posts. */
export type JobMessage =
  | { id: number; begin: true }
  | { id: number; result: unknown }
  | { id: number; error: { code: ErrorCode; message: string; details?: Record<string, unknown> } };

/** Loading a module and a grammar may take this long on a loaded machine. */
const PREPARE_MS = 60_000;
/** Workers with nothing to do are ended after this long. */
const IDLE_MS = 20_000;
/**
 * After this many jobs since the workers were last ended for being idle, they end as soon as the pool
 * has been idle for BURST_IDLE_MS instead of IDLE_MS: a burst like chunking every file of a repository for
 * search_code grows their heaps and the grammars' WASM memory, which never shrink (~20 MB of
 * lspgate's RSS after 3,501 files); the next job starts a fresh worker (~0.2 s).
 */
const LARGE_BURST_JOBS = 512;
const BURST_IDLE_MS = 1000;

interface Pending {
  id: number;
  job: SyntaxJob;
  bounds: ParseBounds;
  signal?: AbortSignal;
  resolve(v: unknown): void;
  reject(e: LspgateError): void;
}

interface Slot {
  worker: Worker;
  /** The worker answers on this port: a deadline drains it before it ends a worker (see arm). */
  port: MessagePort;
  job?: Pending;
  timer?: NodeJS.Timeout;
  /** Why the pool is ending the worker (a deadline), or what it died of. */
  fate?: LspgateError;
}

class JobPool {
  private readonly slots: Slot[] = [];
  private readonly queue: Pending[] = [];
  private readonly size = Math.max(2, Math.min(availableParallelism(), 4));
  private idle: NodeJS.Timeout | undefined;
  private ids = 0;
  /** Jobs started since the idle timer last ended the workers (LARGE_BURST_JOBS). */
  private burst = 0;

  constructor(private readonly maxHeapMb: number) {}

  run(job: SyntaxJob, bounds: ParseBounds, signal?: AbortSignal): Promise<unknown> {
    if (signal?.aborted) return Promise.reject(new LspgateError('CANCELLED', `reading ${job.file} was cancelled`));
    return new Promise((resolve, reject) => {
      this.queue.push({ id: this.ids++, job, bounds, signal, resolve, reject });
      this.dispatch();
    });
  }

  private dispatch(): void {
    clearTimeout(this.idle);
    while (this.queue.length > 0) {
      const p = this.queue.shift()!;
      if (p.signal?.aborted) {
        p.reject(new LspgateError('CANCELLED', `reading ${p.job.file} was cancelled`));
        continue;
      }
      let slot = this.slots.find((s) => !s.job);
      if (!slot && this.slots.length >= this.size) {
        this.queue.unshift(p);
        break;
      }
      slot ??= this.spawn();
      this.start(slot, p);
    }
    if (this.slots.length > 0 && this.slots.every((s) => !s.job)) {
      // after a burst the workers end once idle for a second (not at a gap between two of its jobs)
      const wait = this.burst >= LARGE_BURST_JOBS ? BURST_IDLE_MS : IDLE_MS;
      this.idle = setTimeout(() => {
        this.burst = 0;
        for (const s of this.slots.splice(0)) void s.worker.terminate();
      }, wait);
      this.idle.unref();
    }
  }

  private start(slot: Slot, p: Pending): void {
    slot.job = p;
    this.burst++;
    slot.fate = undefined;
    slot.worker.ref();
    const file = p.job.file;
    this.arm(slot, PREPARE_MS, () => new LspgateError('TIMEOUT', `${file}: loading its grammar took over ${PREPARE_MS} ms`, { file, timeoutMs: PREPARE_MS }));
    slot.worker.postMessage({ id: p.id, job: p.job });
  }

  /** Ends the slot's worker after `ms` unless re-armed or answered: its job fails with `why`. */
  private arm(slot: Slot, ms: number, why: () => LspgateError): void {
    clearTimeout(slot.timer);
    const job = slot.job;
    const timer = setTimeout(() => {
      // A thread busy past the deadline runs this timer before the answer already waiting for it:
      // what the worker has posted is taken first, and only a job still on this deadline is abandoned.
      while (slot.timer === timer) {
        const m = receiveMessageOnPort(slot.port);
        if (!m) break;
        this.message(slot, m.message as JobMessage);
      }
      if (slot.job !== job || slot.timer !== timer) return;
      slot.fate = why();
      void slot.worker.terminate();
    }, ms);
    slot.timer = timer;
  }

  private spawn(): Slot {
    // stdout belongs to the MCP and sidecar protocols: a worker's own streams are taken and dropped
    const { port1, port2 } = new MessageChannel();
    const worker = new Worker(workerScript(import.meta.url, 'job-worker'), {
      workerData: { port: port2 },
      transferList: [port2],
      stdout: true,
      stderr: true,
      resourceLimits: { maxOldGenerationSizeMb: this.maxHeapMb },
    });
    worker.stdout.resume();
    worker.stderr.resume();
    const slot: Slot = { worker, port: port1 };
    this.slots.push(slot);
    port1.on('message', (m: JobMessage) => this.message(slot, m));
    port1.unref();
    worker.on('error', (e: Error & { code?: string }) => {
      const file = slot.job?.job.file ?? 'a file';
      slot.fate ??=
        e.code === 'ERR_WORKER_OUT_OF_MEMORY'
          ? new LspgateError('LIMIT_EXCEEDED', `${file}: parsing needed more than the syntax workers' ${this.maxHeapMb} MB heap (limits.parseHeapMb)`, {
              file,
              limit: 'parseHeapMb',
              value: this.maxHeapMb,
            })
          : new LspgateError('INTERNAL', `${file}: a syntax worker failed: ${e.message}`, { file });
    });
    worker.on('exit', (code) => this.died(slot, code));
    return slot;
  }

  private message(slot: Slot, m: JobMessage): void {
    const p = slot.job;
    if (!p || m.id !== p.id) return;
    if ('begin' in m) {
      const { file } = p.job;
      const ms = p.bounds.parseTimeoutMs;
      this.arm(
        slot,
        ms,
        () =>
          new LspgateError('TIMEOUT', `${file}: parsing did not finish within ${ms} ms (limits.parseTimeoutMs)`, {
            file,
            timeoutMs: ms,
            limit: 'parseTimeoutMs',
          }),
      );
      return;
    }
    clearTimeout(slot.timer);
    slot.timer = undefined;
    slot.job = undefined;
    slot.worker.unref();
    if ('error' in m) p.reject(new LspgateError(m.error.code, m.error.message, m.error.details));
    else p.resolve(m.result);
    this.dispatch();
  }

  /** A worker ended: the job it was on fails with why. */
  private died(slot: Slot, code: number): void {
    clearTimeout(slot.timer);
    slot.port.close();
    const at = this.slots.indexOf(slot);
    if (at >= 0) this.slots.splice(at, 1);
    const p = slot.job;
    slot.job = undefined;
    if (p) p.reject(slot.fate ?? new LspgateError('INTERNAL', `${p.job.file}: the syntax worker exited (${code}) while reading it`, { file: p.job.file }));
    this.dispatch();
  }
}

/** One pool per heap cap (workspaces with the same limits share one). */
const pools = new Map<number, JobPool>();

/** Runs a syntax job in a worker thread, bounded by `bounds`; resolves with what the function returned. */
export function runSyntaxJob<T>(job: SyntaxJob, bounds: ParseBounds = DEFAULT_PARSE_BOUNDS, signal?: AbortSignal): Promise<T> {
  let pool = pools.get(bounds.parseHeapMb);
  if (!pool) pools.set(bounds.parseHeapMb, (pool = new JobPool(bounds.parseHeapMb)));
  return pool.run(job, bounds, signal) as Promise<T>;
}

/**
 * The job that calls `fn`, an exported async function of the module `name` beside `metaUrl` (the
 * caller's own folder), with `args`, on `file`; `grammar` is loaded before the deadline starts.
 */
export function syntaxJob(metaUrl: string, name: string, fn: string, file: string, args: unknown[], grammar?: string, prepare?: string): SyntaxJob {
  return { module: workerScript(metaUrl, name), fn, args, file, ...(grammar ? { grammar } : {}), ...(prepare ? { prepare } : {}) };
}

/** Where a bounded syntax job runs and what bounds it. */
export interface JobPlace {
  /** The caller's `import.meta.url` and the name of its module holding the function (beside it). */
  metaUrl: string;
  module: string;
  grammar: string;
  /** See SyntaxJob.prepare. */
  prepare?: string;
  bounds?: ParseBounds;
  signal?: AbortSignal;
}

/** `fn(file, ...rest)` of a module beside the caller, run in a syntax worker within the bounds. */
export function inSyntaxWorker<T>(at: JobPlace, fn: string, file: string, ...rest: unknown[]): Promise<T> {
  return runSyntaxJob<T>(syntaxJob(at.metaUrl, at.module, fn, file, [file, ...rest], at.grammar, at.prepare), at.bounds, at.signal);
}
