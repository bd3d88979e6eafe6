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
 * Only when the RSS grew this much since the last one: not worth it after a small question. The
 * collection took 738 ms at load 6.5 on 2 cores when the catalog lived in the heap; with the catalog
 * in the database it takes ~85 ms (a 35 MB heap, Python stdlib's 1,784 files). At 32 MB a pass's
 * answers that left ~35 MB of pooled pages behind were collected in one run and not in the next.
 */
const GROWTH_BYTES = 16 * 1048576;
/**
 * Pages freed by the collection can stay resident a while after it (V8 gives some back later: its own
 * memory reducer, ~8 s after allocation slows, took a process from 149 to 119 MB): the floor is read
 * again then, and the lower reading kept. Read only at once, the floor kept pages that went back
 * afterwards, and the growth of the next burst was measured from there: ~35 MB of a pass's answers'
 * garbage then did not count as growth and stayed resident.
 */
export const RELEASED_MS = 10_000;
/**
 * Or when V8's committed heap grew this much: the RSS alone missed a burst that followed a pass (the
 * pass's last syntax worker ended meanwhile: the RSS fell below the last collection's, and 28 MB of a
 * search's garbage then stayed resident). 4 MB: the answers after a pass on the generated 3,500 files
 * grew the heap 7 MB and the RSS less than 16, and left the process at 151 MB settled where one
 * collection takes it to 133 MB.
 */
const HEAP_GROWTH_BYTES = 4 * 1048576;

type Collect = (options: { type: 'major'; execution: 'sync'; flavor: 'last-resort' }) => void;

/** The process's RSS and V8's committed heap, in bytes (a test reads the memory it arranges through these). */
export const memoryReadings = {
  rss: (): number => process.memoryUsage.rss(),
  heap: (): number => process.memoryUsage().heapTotal,
};

let collect: Collect | null | undefined;
let timer: NodeJS.Timeout | undefined;
/** Reads the floor again once the collection's pages have gone back (RELEASED_MS). */
let settle: NodeJS.Timeout | undefined;
/** The RSS and V8's committed heap after the last collection (0: none yet). */
let floor = 0;
let heapFloor = 0;

/** Whether the memory grew enough since the last collection for another to be worth its time. */
function grew(): boolean {
  return memoryReadings.rss() - floor >= GROWTH_BYTES || memoryReadings.heap() - heapFloor >= HEAP_GROWTH_BYTES;
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
  readFloor(true);
  clearTimeout(settle);
  settle = setTimeout(() => readFloor(false), RELEASED_MS);
  settle.unref();
}

/** The RSS and V8's committed heap as the floor: now (`reset`), or the lower of it and now. */
function readFloor(reset: boolean): void {
  const rss = memoryReadings.rss();
  const heap = memoryReadings.heap();
  floor = reset ? rss : Math.min(floor, rss);
  heapFloor = reset ? heap : Math.min(heapFloor, heap);
}
