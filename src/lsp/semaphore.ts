/**
 * A counting semaphore with a bounded queue, deadlines and abort (per-server concurrency), and two
 * classes of work: interactive (an operation someone waits for) and background (catalog builds,
 * chunking, graph building). Interactive waiters are granted before any background waiter; while
 * interactive work runs or waits, background work yields — it gets a slot only while fewer than
 * one background request is in flight — and background never takes the last free slot, so an
 * interactive request arriving during a bulk catalog is sent at once instead of behind it.
 */
import { LspgateError } from '../errors/errors.js';

interface Waiter {
  background: boolean;
  grant: () => void;
}

export class Semaphore {
  private active = 0;
  private activeBackground = 0;
  private readonly interactive: Waiter[] = [];
  private readonly background: Waiter[] = [];

  constructor(
    private readonly max: number,
    private readonly maxQueue = 10_000,
    private readonly label = 'server',
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
      const timer = setTimeout(() => {
        remove();
        cleanup();
        reject(new LspgateError('TIMEOUT', `${this.label}: timed out after ${timeoutMs} ms waiting for a free request slot (${this.active} in flight)`, { timeoutMs, queued: true }));
      }, Math.max(0, timeoutMs));
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
    if (this.interactiveDemand > 0) return this.activeBackground < 1;
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
      this.drain();
    };
  }

  private drain(): void {
    while (this.interactive.length && this.canGrant(false)) this.interactive.shift()!.grant();
    while (this.background.length && this.canGrant(true)) this.background.shift()!.grant();
  }
}
