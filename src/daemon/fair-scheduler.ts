/**
 * How the daemon shares itself between its clients. Every operation call of a client is a unit of
 * work; at most `slots` units run at once over all clients, and a call that cannot start waits in
 * its own client's queue. When a unit ends, the next one is taken from the client with calls
 * waiting that has the fewest running (ties round-robin) — so one client's flood of 50 heavy calls
 * delays another client's call by at most one unit: that client's call is next as soon as a
 * running unit ends. A client with no
 * unit running starts its call at once, even when every slot is taken: an agent asking one
 * question at a time (search_symbols between edits) never waits behind another client's queue,
 * and shares the process with at most `slots` units of the others instead of the whole flood.
 *
 * Why calls, and why here: the daemon's event loop is the resource every client shares — catalog
 * searches, result building, JSON of every answer run on it — and the language servers' session
 * queues are first-come-first-served (interactive before background, src/lsp/semaphore.ts, but one
 * client's interactive flood filled them). Limiting what each client has in flight at the daemon
 * bounds both: a flooding client has at most `slots` calls in the process and its requests in the
 * servers' queues, the rest waits here, per client.
 */
import { LspgateError } from '../errors/errors.js';

interface Job {
  start: () => void;
  abandon: () => void;
}

interface ClientState {
  running: number;
  queue: Job[];
}

/** One client's place at the scheduler: its calls go through `run`. */
export interface ClientQueue {
  run<T>(work: () => Promise<T>, signal?: AbortSignal): Promise<T>;
  /** Calls of this client running now, and waiting for their turn. */
  counts(): { running: number; queued: number };
  /** The client is gone: calls still waiting are refused. */
  close(): void;
}

export class FairScheduler {
  private running = 0;
  /** Clients in round-robin order; the next turn starts after `cursor`. */
  private readonly clients: ClientState[] = [];
  private cursor = 0;

  constructor(readonly slots: number) {}

  /** Units running now over all clients (status, tests). */
  get active(): number {
    return this.running;
  }

  client(): ClientQueue {
    const state: ClientState = { running: 0, queue: [] };
    this.clients.push(state);
    return {
      run: (work, signal) => this.run(state, work, signal),
      counts: () => ({ running: state.running, queued: state.queue.length }),
      close: () => {
        for (const job of state.queue.splice(0)) job.abandon();
        const i = this.clients.indexOf(state);
        if (i >= 0) {
          this.clients.splice(i, 1);
          if (this.cursor > i) this.cursor--;
        }
      },
    };
  }

  private mayStart(c: ClientState): boolean {
    return c.running === 0 || this.running < this.slots;
  }

  private run<T>(c: ClientState, work: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    if (signal?.aborted) return Promise.reject(new LspgateError('CANCELLED', 'cancelled before start'));
    return new Promise<T>((resolve, reject) => {
      const onAbort = () => {
        const i = c.queue.indexOf(job);
        if (i >= 0) c.queue.splice(i, 1);
        reject(new LspgateError('CANCELLED', 'cancelled while waiting for its turn'));
      };
      const job: Job = {
        start: () => {
          signal?.removeEventListener('abort', onAbort);
          c.running++;
          this.running++;
          void Promise.resolve()
            .then(work)
            .then(resolve, reject)
            .finally(() => {
              c.running--;
              this.running--;
              this.dispatch();
            });
        },
        abandon: () => {
          signal?.removeEventListener('abort', onAbort);
          reject(new LspgateError('DAEMON_FAILED', 'the client left before this call started', { reason: 'connection' }));
        },
      };
      // a client's own calls keep their order: a new one never overtakes one already waiting
      if (c.queue.length === 0 && this.mayStart(c)) return job.start();
      signal?.addEventListener('abort', onAbort, { once: true });
      c.queue.push(job);
    });
  }

  /**
   * Starts waiting calls while they may: each time the client with the fewest calls running (its
   * share of the slots is the smallest), ties taken round-robin after the last client served.
   */
  private dispatch(): void {
    for (;;) {
      const n = this.clients.length;
      let pick = -1;
      for (let k = 0; k < n; k++) {
        const i = (this.cursor + k) % n;
        const c = this.clients[i]!;
        if (c.queue.length === 0 || !this.mayStart(c)) continue;
        if (pick < 0 || c.running < this.clients[pick]!.running) pick = i;
      }
      if (pick < 0) return;
      this.cursor = (pick + 1) % n;
      this.clients[pick]!.queue.shift()!.start();
    }
  }
}
