/**
 * The syntax tier's worker threads: every parse of the syntax tier runs here, never on the thread
 * that answers every client — a cold workspace's files on every core, and later each changed file,
 * refresh and early outline. One small pool per process (node:worker_threads, one tree-sitter runtime
 * per worker), started lazily and ended when idle; files go out in small batches to whichever worker
 * is free, single-file questions before any bulk pass, bulk passes of several workspaces in turn.
 *
 * Each file is bounded: a deadline from the moment its worker starts parsing it, and a heap cap per
 * worker (`resourceLimits`). A file over either is abandoned — its worker terminated and replaced,
 * the file answered TIMEOUT or LIMIT_EXCEEDED, the rest of its batch sent again — and every other file
 * is answered. A worker that dies for any other reason fails only the file it was on (INTERNAL).
 */
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';

import type { FileContent, FileEntry } from '../../core/catalog.js';
import { LspgateError } from '../../errors/errors.js';
import { workerScript } from '../../util/worker-script.js';

export interface SyntaxJob {
  abs: string;
  rel: string;
  /** The bytes the gate admitted (a changed file): parsed as they are, not read again. */
  content?: FileContent;
}

export interface SyntaxBatch {
  id: number;
  root: string;
  maxFileBytes: number;
  files: SyntaxJob[];
}

/** What a worker posts: `begin` when a file's own work starts (read and grammar loaded), then its answer. */
export type WorkerMessage = { id: number; begin: number } | { id: number; index: number; answer: SyntaxAnswer };

export type SyntaxAnswer = { rel: string; entry: FileEntry; error?: undefined } | { rel: string; entry?: undefined; error: { code: string; message: string } };

/** Files per message: enough to keep a worker busy between round trips, few enough to spread the work. */
const BATCH = 8;
/** Reading a file and loading its grammar (fixed work, whatever the file holds) may take this long on a loaded machine. */
const PREPARE_MS = 60_000;
/** Workers with nothing to do are ended after this long (they hold a runtime and its grammars). */
const IDLE_MS = 20_000;
/**
 * A worker that took part in a pass of this many files is not the one kept for the next edit: its
 * heap and the grammars' WASM memory grew with the pass and never shrink. Measured on 3,501 generated
 * files with lspgate's malloc tunables: the process with a fresh worker 10 MB over none, with a
 * worker kept after the pass 30 MB over none; starting a fresh one for the next edit takes ~0.2 s.
 */
const LARGE_PASS_FILES = 512;
/**
 * A question someone waits for takes the next worker that finishes its batch; only when none has
 * within this long does it get a worker of its own. Starting one (a runtime and a grammar) took
 * 2.7 s on a loaded 2-core machine, ten times a batch.
 */
const OWN_WORKER_AFTER_MS = 1000;

export interface PoolOptions {
  root: string;
  maxFileBytes: number;
  /** Per file, from the moment its worker starts parsing it. */
  deadlineMs: number;
  /** Each worker's V8 heap cap (old generation), MiB. */
  maxHeapMb: number;
  signal?: AbortSignal;
  /** A question someone waits for (a changed file, an early outline): before any bulk pass. */
  interactive?: boolean;
}

interface Run {
  opts: PoolOptions;
  /** How many files it was given. */
  files: number;
  pending: SyntaxJob[][];
  left: number;
  onAnswer: (a: SyntaxAnswer) => void;
  settle: (e?: LspgateError) => void;
  done: boolean;
}

interface Slot {
  worker: Worker;
  run?: Run;
  batch?: SyntaxBatch;
  /** Index in the batch of the file being worked on; answered files before it. */
  at: number;
  timer?: NodeJS.Timeout;
  /** Why the worker is being ended by the pool (a deadline), or the error it died of. */
  fate?: LspgateError;
  dead?: boolean;
  /** It worked on a pass of LARGE_PASS_FILES or more: not kept when idle. */
  grown?: boolean;
}

class SyntaxPool {
  private readonly slots: Slot[] = [];
  private readonly runs: Run[] = [];
  private readonly size = Math.max(1, Math.min(availableParallelism(), 4));
  private idle: NodeJS.Timeout | undefined;
  /** Since when a question someone waits for has found every worker busy (see OWN_WORKER_AFTER_MS). */
  private waiting: { since: number; timer: NodeJS.Timeout } | undefined;
  private ids = 0;
  private turn = 0;

  constructor(private readonly maxHeapMb: number) {}

  parse(jobs: SyntaxJob[], opts: PoolOptions, onAnswer: (a: SyntaxAnswer) => void): Promise<void> {
    if (jobs.length === 0) return Promise.resolve();
    return new Promise<void>((resolve, reject) => {
      const pending: SyntaxJob[][] = [];
      for (let i = 0; i < jobs.length; i += BATCH) pending.push(jobs.slice(i, i + BATCH));
      const run: Run = {
        opts,
        files: jobs.length,
        pending,
        left: jobs.length,
        onAnswer,
        done: false,
        settle: (e) => {
          if (run.done) return;
          run.done = true;
          run.pending.length = 0;
          this.runs.splice(this.runs.indexOf(run), 1);
          if (e) reject(e);
          else resolve();
        },
      };
      this.runs.push(run);
      this.dispatch();
    });
  }

  /** The next batch: a question someone waits for first, then the bulk runs in turn. */
  private next(): { run: Run; files: SyntaxJob[] } | undefined {
    for (const run of this.runs) {
      if (run.opts.signal?.aborted) run.settle(new LspgateError('CANCELLED', 'cataloging was cancelled'));
    }
    const live = this.runs.filter((r) => r.pending.length > 0);
    // bulk batches on at most `size` workers: one started for a question someone waits for does not
    // join the pass and take the cores a language server loading beside it needs; none while a
    // semantic question waits for its server to load (yieldToServers)
    const bulkRoom = !yielding.size && this.slots.filter((s) => s.batch && !s.run?.opts.interactive).length < this.size;
    const bulk = live.filter((r) => !r.opts.interactive);
    const pick = live.find((r) => r.opts.interactive) ?? (bulkRoom ? bulk[this.turn++ % Math.max(1, bulk.length)] : undefined);
    return pick ? { run: pick, files: pick.pending.shift()! } : undefined;
  }

  dispatch(): void {
    for (;;) {
      let slot = this.slots.find((s) => !s.batch && !s.dead);
      // a question someone waits for gets a worker of its own even when every worker is on a long file
      const room = this.slots.length < this.size || (this.slots.length < this.size * 2 && this.waitedForWorker());
      if (!slot && !room) break;
      const work = this.next();
      if (!work) break;
      slot ??= this.spawn();
      this.send(slot, work.run, work.files);
    }
    this.idleCheck();
  }

  /** Whether a question someone waits for has found every worker busy for OWN_WORKER_AFTER_MS. */
  private waitedForWorker(): boolean {
    if (!this.runs.some((r) => r.opts.interactive && r.pending.length > 0)) {
      clearTimeout(this.waiting?.timer);
      this.waiting = undefined;
      return false;
    }
    this.waiting ??= { since: performance.now(), timer: setTimeout(() => this.dispatch(), OWN_WORKER_AFTER_MS).unref() };
    if (performance.now() - this.waiting.since < OWN_WORKER_AFTER_MS) return false;
    clearTimeout(this.waiting.timer);
    this.waiting = undefined;
    return true;
  }

  private send(slot: Slot, run: Run, files: SyntaxJob[]): void {
    const batch: SyntaxBatch = { id: this.ids++, root: run.opts.root, maxFileBytes: run.opts.maxFileBytes, files };
    slot.run = run;
    slot.batch = batch;
    slot.at = 0;
    if (run.files >= LARGE_PASS_FILES) slot.grown = true;
    slot.worker.ref();
    this.arm(
      slot,
      PREPARE_MS,
      () => new LspgateError('TIMEOUT', `${files[0]!.rel}: reading the file and loading its grammar took over ${PREPARE_MS} ms`, { timeoutMs: PREPARE_MS }),
    );
    slot.worker.postMessage(batch);
  }

  /** Ends the slot's worker after `ms` unless re-armed: the file it is on is abandoned with `why`. */
  private arm(slot: Slot, ms: number, why: () => LspgateError): void {
    clearTimeout(slot.timer);
    slot.timer = setTimeout(() => {
      slot.fate = why();
      void slot.worker.terminate();
    }, ms);
  }

  private spawn(): Slot {
    // stdout belongs to the MCP and sidecar protocols: a worker's own streams are taken and dropped
    const worker = new Worker(workerScript(import.meta.url, 'syntax-worker'), {
      stdout: true,
      stderr: true,
      resourceLimits: { maxOldGenerationSizeMb: this.maxHeapMb },
    });
    worker.stdout.resume();
    worker.stderr.resume();
    const slot: Slot = { worker, at: 0 };
    this.slots.push(slot);
    worker.on('message', (m: WorkerMessage) => this.message(slot, m));
    worker.on('error', (e: Error & { code?: string }) => {
      slot.fate ??=
        e.code === 'ERR_WORKER_OUT_OF_MEMORY'
          ? new LspgateError('LIMIT_EXCEEDED', `parsing needed more than the syntax workers' ${this.maxHeapMb} MB heap (limits.parseHeapMb)`, {
              limit: 'parseHeapMb',
              value: this.maxHeapMb,
            })
          : new LspgateError('INTERNAL', `a syntax worker failed: ${e.message}`);
    });
    worker.on('exit', (code) => this.died(slot, code));
    return slot;
  }

  private message(slot: Slot, m: WorkerMessage): void {
    const batch = slot.batch;
    const run = slot.run;
    if (!batch || !run || m.id !== batch.id) return;
    if ('begin' in m) {
      slot.at = m.begin;
      const file = batch.files[m.begin]!.rel;
      const ms = run.opts.deadlineMs;
      this.arm(
        slot,
        ms,
        () =>
          new LspgateError('TIMEOUT', `${file}: parsing did not finish within ${ms} ms (limits.parseTimeoutMs); the file is left out`, {
            file,
            timeoutMs: ms,
            limit: 'parseTimeoutMs',
          }),
      );
      return;
    }
    slot.at = m.index + 1;
    this.answer(run, m.answer);
    if (slot.at < batch.files.length) {
      this.arm(
        slot,
        PREPARE_MS,
        () =>
          new LspgateError('TIMEOUT', `${batch.files[slot.at]!.rel}: reading the file and loading its grammar took over ${PREPARE_MS} ms`, {
            timeoutMs: PREPARE_MS,
          }),
      );
      return;
    }
    clearTimeout(slot.timer);
    slot.batch = undefined;
    slot.run = undefined;
    slot.worker.unref();
    this.dispatch();
  }

  private answer(run: Run, a: SyntaxAnswer): void {
    if (run.done) return;
    run.onAnswer(a);
    if (--run.left === 0) run.settle();
  }

  /** A worker ended: the file it was on fails with why, the rest of its batch goes out again. */
  private died(slot: Slot, code: number): void {
    slot.dead = true;
    clearTimeout(slot.timer);
    // a worker the pool ended when idle is out of `slots` already: splice(-1) would drop the last
    // slot, the worker kept for the next edit, unended and out of the idle timer's reach
    const at = this.slots.indexOf(slot);
    if (at >= 0) this.slots.splice(at, 1);
    const { batch, run } = slot;
    if (batch && run && !run.done) {
      const file = batch.files[slot.at];
      if (file) {
        const why = slot.fate ?? new LspgateError('INTERNAL', `the syntax worker exited (${code}) while parsing ${file.rel}`);
        this.answer(run, { rel: file.rel, error: { code: why.code, message: why.message.startsWith(file.rel) ? why.message : `${file.rel}: ${why.message}` } });
        const rest = batch.files.slice(slot.at + 1);
        if (rest.length && !run.done) run.pending.unshift(rest);
      }
    }
    this.dispatch();
  }

  /**
   * No work left: all workers but one end now, the last after a while; none holds the process open.
   * The one kept is one that has not grown with a large pass (LARGE_PASS_FILES): after one, none is.
   */
  private idleCheck(): void {
    clearTimeout(this.idle);
    if (this.slots.some((s) => s.batch) || this.runs.length) return;
    if (this.slots.length === 0) return;
    // one worker stays for the next edit; the others a pass started end now: each holds a V8 heap,
    // the grammars' WASM memory and a malloc arena (~15 MB of the process's RSS apiece)
    const kept = this.slots.find((s) => !s.grown);
    for (const s of this.slots.splice(0)) {
      if (s === kept) continue;
      s.dead = true;
      void s.worker.terminate();
    }
    if (kept) this.slots.push(kept);
    this.idle = setTimeout(() => {
      for (const s of this.slots.splice(0)) {
        s.dead = true;
        void s.worker.terminate();
      }
    }, IDLE_MS);
    this.idle.unref();
  }
}

/** The longest one semantic question holds the bulk passes back (a project that loads for minutes does not stop them). */
export const MAX_YIELD_MS = 10_000;
/** The holds of semantic questions waiting for their server now (yieldToServers). */
const yielding = new Set<object>();

/**
 * A semantic question waits for its server to load its project: bulk passes send no new batch
 * until the returned release is called (or MAX_YIELD_MS passed), so the server has the cores the
 * pass's workers took — by name on a cold 3,500-file workspace the server loaded beside two busy
 * workers and the answer took 1.8x the same question by position, which runs no pass. Questions
 * someone waits for (parses ahead, changed files) still go out; batches already sent finish.
 */
export function yieldToServers(): () => void {
  const hold = {};
  yielding.add(hold);
  const timer = setTimeout(() => release(), MAX_YIELD_MS).unref();
  const release = () => {
    clearTimeout(timer);
    if (!yielding.delete(hold) || yielding.size) return;
    for (const pool of pools.values()) pool.dispatch();
  };
  return release;
}

/** How many semantic questions hold the bulk passes back now. */
export function heldForServers(): number {
  return yielding.size;
}

/** One pool per worker heap cap (workspaces with the same limits share one). */
const pools = new Map<number, SyntaxPool>();

/** Catalogs `jobs` from syntax on the worker pool; `onAnswer` gets each file's entry or error as it comes. */
export function parseInWorkers(jobs: SyntaxJob[], opts: PoolOptions, onAnswer: (a: SyntaxAnswer) => void): Promise<void> {
  let pool = pools.get(opts.maxHeapMb);
  if (!pool) pools.set(opts.maxHeapMb, (pool = new SyntaxPool(opts.maxHeapMb)));
  return pool.parse(jobs, opts, onAnswer);
}
