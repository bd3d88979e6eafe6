/**
 * Gives the memory of a burst of work back to the system once lspgate is idle. A pass, the first
 * search_code (every file chunked) or a search_symbols over a large catalog makes heaps of
 * short-lived objects; V8's ordinary collections free them but keep the pages, pooled and resident,
 * and with nothing allocated afterwards no collection comes to shrink the heap: measured on 3,500
 * files, the process stayed at 281 MB after its workers ended, and a memory-reducing collection
 * (the one V8 runs under memory pressure) took it to 167 MB. So, IDLE_GC_MS after the last operation
 * or pass ended, that collection is run once — when the RSS grew by GROWTH_BYTES or V8's committed
 * heap by HEAP_GROWTH_BYTES since the last —
 * at a moment nobody waits (a question asked meanwhile waits for it to end); at once when a pass ends
 * with no question being answered (burstEnded).
 *
 * The collector is V8's `gc`, reached by setting --expose-gc at run time and taking `gc` from a new
 * context (the flag only exposes it to contexts made afterwards). Where that fails nothing is done.
 */
import v8 from 'node:v8';
import vm from 'node:vm';

/** Idle this long after the last piece of work: the memory-reducing collection runs. */
export const IDLE_GC_MS = 5000;
/**
 * Only when the RSS grew this much since the last one: the collection is several full collections
 * in a row (738 ms at load 6.5 on 2 cores after a search_symbols over 169k symbols), not worth it
 * after a small question.
 */
const GROWTH_BYTES = 32 * 1048576;
/**
 * Or when V8's committed heap grew this much: the RSS alone missed a burst that followed a pass (the
 * pass's last syntax worker ended meanwhile: the RSS fell below the last collection's, and 28 MB of a
 * search's garbage then stayed resident).
 */
const HEAP_GROWTH_BYTES = 8 * 1048576;

type Collect = (options: { type: 'major'; execution: 'sync'; flavor: 'last-resort' }) => void;

let collect: Collect | null | undefined;
let timer: NodeJS.Timeout | undefined;
/** The RSS and V8's committed heap after the last collection (0: none yet). */
let floor = 0;
let heapFloor = 0;

/** Whether the memory grew enough since the last collection for another to be worth its time. */
function grew(): boolean {
  return process.memoryUsage.rss() - floor >= GROWTH_BYTES || process.memoryUsage().heapTotal - heapFloor >= HEAP_GROWTH_BYTES;
}

function collector(): Collect | null {
  if (collect === undefined) {
    try {
      v8.setFlagsFromString('--expose-gc');
      const gc: unknown = vm.runInNewContext('gc');
      collect = typeof gc === 'function' ? (gc as Collect) : null;
    } catch {
      collect = null;
    }
  }
  return collect;
}

/** Operations being answered: the collection waits for none. */
let running = 0;

/** An operation starts: no collection runs until it (and every other) has ended. */
export function workStarted(): void {
  running++;
  clearTimeout(timer);
}

/** A piece of work ended (an operation answered, a pass done): the collection runs IDLE_GC_MS after the last one. */
export function workEnded(operation = false): void {
  if (operation) running = Math.max(0, running - 1);
  clearTimeout(timer);
  if (running > 0) return;
  timer = setTimeout(() => {
    if (running === 0 && grew()) reduceMemory();
  }, IDLE_GC_MS);
  // never what keeps the process alive
  timer.unref();
}

/**
 * A burst of work nobody waits on ended (a pass done): its garbage goes back now, not IDLE_GC_MS
 * later (the questions asked next would find it resident), unless an operation is being answered —
 * then, as after any work, once everything has been idle IDLE_GC_MS.
 */
export function burstEnded(): void {
  if (running === 0 && grew()) reduceMemory();
  else workEnded();
}

/** The memory-reducing collection, now (the idle timer's; tests). */
export function reduceMemory(): void {
  clearTimeout(timer);
  timer = undefined;
  collector()?.({ type: 'major', execution: 'sync', flavor: 'last-resort' });
  floor = process.memoryUsage.rss();
  heapFloor = process.memoryUsage().heapTotal;
}
