/**
 * How many catalog requests one server gets at once: a counting semaphore whose limit adapts to the
 * server's observed latency (additive increase, multiplicative decrease). A cold tsserver answering a
 * flood of documentSymbol requests slows down until requests time out (index_folder of a ~490-file
 * repository ended with the server killed after 3 consecutive timeouts): when answers slow past
 * `slowMs` or fail with a timeout, the limit halves; each fast answer earns back a fraction of a slot.
 */
export interface LimiterOptions {
  /** The most tasks at once (limits.perServerConcurrency). */
  max: number;
  /** An answer slower than this is a sign of overload. */
  slowMs?: number;
}

export class Limiter {
  private active = 0;
  private readonly waiting: (() => void)[] = [];
  private limit: number;
  private readonly max: number;
  private readonly slowMs: number;

  constructor(opts: LimiterOptions | number) {
    const o = typeof opts === 'number' ? { max: opts } : opts;
    this.max = Math.max(1, o.max);
    this.slowMs = o.slowMs ?? 2000;
    this.limit = this.max;
  }

  /** The current limit (between 1 and max). */
  get concurrency(): number {
    return Math.floor(this.limit);
  }

  /**
   * Runs `task` when a slot is free. The latency judged is from the task's start, or from when it
   * calls `began()` (a task that first waits for its turn elsewhere, e.g. behind interactive work,
   * is not a slow server).
   */
  async run<T>(task: (began: () => void) => Promise<T>): Promise<T> {
    while (this.active >= Math.floor(this.limit)) await new Promise<void>((resolve) => this.waiting.push(resolve));
    this.active++;
    let started = performance.now();
    let overloaded = false;
    try {
      return await task(() => (started = performance.now())).catch((e: unknown) => {
        overloaded = (e as { code?: string }).code === 'TIMEOUT';
        throw e;
      });
    } finally {
      this.active--;
      this.adapt(overloaded || performance.now() - started > this.slowMs);
      this.wake();
    }
  }

  private adapt(overloaded: boolean): void {
    if (overloaded) this.limit = Math.max(1, this.limit / 2);
    else this.limit = Math.min(this.max, this.limit + 1 / Math.max(1, Math.floor(this.limit)));
  }

  private wake(): void {
    let free = Math.floor(this.limit) - this.active;
    while (free-- > 0 && this.waiting.length) this.waiting.shift()!();
  }
}
