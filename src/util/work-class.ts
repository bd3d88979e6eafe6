/**
 * Which class of work the current async call chain belongs to: interactive (someone waits for this
 * one answer) or background (bulk work — catalog builds, import-graph and call-edge building,
 * chunking and embedding). The class travels with the async context (node:async_hooks
 * AsyncLocalStorage), so every language-server request issued anywhere under `asBackground(...)`
 * — however deep in the service, through file loading, call trees or adapters — is queued as
 * background by the session (src/lsp/semaphore.ts) without threading a flag through each call.
 * Node's own AsyncLocalStorage is used rather than a library: it is the maintained mechanism for
 * exactly this and needs no dependency.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { setImmediate as nextTurn } from 'node:timers/promises';

const workClass = new AsyncLocalStorage<'background'>();

/** Runs `work` (and everything it awaits) as background work. */
export function asBackground<T>(work: () => Promise<T>): Promise<T> {
  return workClass.run('background', work);
}

/** True inside `asBackground`. */
export function inBackground(): boolean {
  return workClass.getStore() === 'background';
}

/**
 * Lets the event loop run (I/O, timers, interactive requests' answers) before the next batch of
 * CPU-bound background work: awaiting a promise alone only runs microtasks.
 */
export function yieldToEventLoop(): Promise<void> {
  return nextTurn();
}
