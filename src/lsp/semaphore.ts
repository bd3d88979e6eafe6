/** A counting semaphore with a bounded queue, deadlines and abort (per-server concurrency). */
import { LspgateError } from '../errors/errors.js';

export class Semaphore {
  private active = 0;
  private queue: { grant: () => void }[] = [];

  constructor(
    private readonly max: number,
    private readonly maxQueue = 10_000,
    private readonly label = 'server',
  ) {}

  get inFlight(): number {
    return this.active;
  }
  get waiting(): number {
    return this.queue.length;
  }

  /** Resolves with a release function. Rejects TIMEOUT after `timeoutMs` queued, CANCELLED on abort. */
  acquire(timeoutMs: number, signal?: AbortSignal): Promise<() => void> {
    if (signal?.aborted) return Promise.reject(new LspgateError('CANCELLED', 'request cancelled'));
    if (this.active < this.max) {
      this.active++;
      return Promise.resolve(this.releaser());
    }
    if (this.queue.length >= this.maxQueue) {
      return Promise.reject(
        new LspgateError('LIMIT_EXCEEDED', `${this.label}: ${this.queue.length} requests already queued`, { limit: 'perServerConcurrency', queued: this.queue.length }),
      );
    }
    return new Promise((resolve, reject) => {
      const item = {
        grant: () => {
          cleanup();
          this.active++;
          resolve(this.releaser());
        },
      };
      const remove = () => {
        const i = this.queue.indexOf(item);
        if (i >= 0) this.queue.splice(i, 1);
      };
      const timer = setTimeout(() => {
        remove();
        cleanup();
        reject(new LspgateError('TIMEOUT', `${this.label}: timed out after ${timeoutMs} ms waiting for a free request slot (${this.max} in flight)`, { timeoutMs, queued: true }));
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
      this.queue.push(item);
    });
  }

  private releaser(): () => void {
    let done = false;
    return () => {
      if (done) return;
      done = true;
      this.active--;
      const next = this.queue.shift();
      if (next) next.grant();
    };
  }
}
