/**
 * A counting semaphore with a bounded queue, deadlines and abort (per-server concurrency), and two
 * classes of work: interactive (an operation someone waits for) and background (catalog builds,
 * chunking, graph building). Interactive waiters are granted before any background waiter; while
 * interactive work runs, waits, or ended less than `quietMs` ago (an agent's calls come in bursts),
 * background work yields — it gets a slot only while fewer than one background request is in
 * flight — and background never takes the last free slot, so an interactive request arriving
 * during a bulk catalog is sent at once instead of behind it.
 *
 * A background *unit* (`unit()`: the catalog's didOpen → documentSymbol → didClose of one file) is
 * held the same way before it starts: the didOpen is the costly part for some servers (the
 * partial-semantic tsserver rebuilds its inferred project on every open, 45 ms of CPU per file
 * measured on 481 files) and it is sent before the request queues for a slot, so holding only the
 * request let a bulk build keep a server and the CPU busy while an interactive request waited.
 */
import { LspgateError } from '../errors/errors.js';

interface Waiter {
  background: boolean;
  grant: () => void;
}

/** How long after an interactive request background work stays held back (ms). */
export const INTERACTIVE_QUIET_MS = 50;

export class Semaphore {
  private active = 0;
  private activeBackground = 0;
  private readonly interactive: Waiter[] = [];
  private readonly background: Waiter[] = [];
  private units = 0;
  private readonly unitWaiters: (() => void)[] = [];
  private lastInteractiveEnd = -Infinity;
  private quietTimer: NodeJS.Timeout | undefined;

  constructor(
    private readonly max: number,
    private readonly maxQueue = 10_000,
    private readonly label = 'server',
    private readonly quietMs = INTERACTIVE_QUIET_MS,
  ) {}

  get inFlight(): number {
    return this.active;
  }
  get waiting(): number {
    return this.interactive.length + this.background.length;
  }
  /** Interactive requests running or queued (background work yields while there are any). */
  get interactiveDemand(): number {
    return this.active - this.activeBackground + this.interactive.length;
  }
  /** Background units waiting for their turn (tests, status). */
  get unitsWaiting(): number {
    return this.unitWaiters.length;
  }

  /** Interactive work running, queued, or ended less than quietMs ago. */
  private interactiveActive(): boolean {
    return this.interactiveDemand > 0 || performance.now() - this.lastInteractiveEnd < this.quietMs;
  }

  /**
   * Runs one unit of background work once it may start: at once while no interactive work is
   * active, else only while no other unit runs (one at a time, so bulk work still progresses).
   */
  async unit<T>(work: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    while (this.interactiveActive() && this.units > 0) {
      if (signal?.aborted) throw new LspgateError('CANCELLED', 'background work cancelled');
      await new Promise<void>((resolve) => {
        this.unitWaiters.push(resolve);
        this.armQuietTimer();
      });
    }
    this.units++;
    try {
      return await work();
    } finally {
      this.units--;
      this.wake();
    }
  }

  /**
   * Resolves with a release function. Rejects TIMEOUT after `timeoutMs` queued, CANCELLED on abort.
   * `background` work queues behind every interactive request.
   */
  acquire(timeoutMs: number, signal?: AbortSignal, background = false): Promise<() => void> {
    if (signal?.aborted) return Promise.reject(new LspgateError('CANCELLED', 'request cancelled'));
    const queue = background ? this.background : this.interactive;
    if (queue.length === 0 && this.canGrant(background)) return Promise.resolve(this.take(background));
    if (this.waiting >= this.maxQueue) {
      return Promise.reject(
        new LspgateError('LIMIT_EXCEEDED', `${this.label}: ${this.waiting} requests already queued`, { limit: 'perServerConcurrency', queued: this.waiting }),
      );
    }
    return new Promise((resolve, reject) => {
      const item: Waiter = {
        background,
        grant: () => {
          cleanup();
          resolve(this.take(background));
        },
      };
      const remove = () => {
        const i = queue.indexOf(item);
        if (i >= 0) queue.splice(i, 1);
      };
      const timer = setTimeout(
        () => {
          remove();
          cleanup();
          reject(
            new LspgateError('TIMEOUT', `${this.label}: timed out after ${timeoutMs} ms waiting for a free request slot (${this.active} in flight)`, {
              timeoutMs,
              queued: true,
            }),
          );
        },
        Math.max(0, timeoutMs),
      );
      const onAbort = () => {
        remove();
        cleanup();
        reject(new LspgateError('CANCELLED', 'request cancelled while queued'));
      };
      const cleanup = () => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      queue.push(item);
    });
  }

  private canGrant(background: boolean): boolean {
    if (this.active >= this.max) return false;
    if (!background) return true;
    if (this.interactiveActive()) return this.activeBackground < 1;
    // the last free slot stays free for an interactive request (unless there is only one slot)
    return this.max === 1 || this.active < this.max - 1;
  }

  private take(background: boolean): () => void {
    this.active++;
    if (background) this.activeBackground++;
    let done = false;
    return () => {
      if (done) return;
      done = true;
      this.active--;
      if (background) this.activeBackground--;
      else this.lastInteractiveEnd = performance.now();
      this.wake();
    };
  }

  /** Grants what may run now; held background work is woken again when the quiet period ends. */
  private wake(): void {
    while (this.interactive.length && this.canGrant(false)) this.interactive.shift()!.grant();
    while (this.background.length && this.canGrant(true)) this.background.shift()!.grant();
    for (const resolve of this.unitWaiters.splice(0)) resolve();
    if (this.background.length) this.armQuietTimer();
  }

  private armQuietTimer(): void {
    if (this.quietTimer || this.interactiveDemand > 0) return;
    const left = this.lastInteractiveEnd + this.quietMs - performance.now();
    if (left <= 0) return;
    this.quietTimer = setTimeout(() => {
      this.quietTimer = undefined;
      this.wake();
    }, Math.ceil(left));
    this.quietTimer.unref();
  }
}
