/**
 * The first `k` of `count` items (0 .. count-1) in the order `better` defines (negative: a goes
 * first; it must be a total order), without sorting the rest: a heap of the k best so far
 * (O(count log k)), or a plain sort when k is not much smaller than count.
 */
export function selectTop(count: number, k: number, better: (a: number, b: number) => number): number[] {
  if (k * 4 >= count) {
    const all = Array.from({ length: count }, (_, i) => i).sort(better);
    return all.length > k ? all.slice(0, k) : all;
  }
  if (k <= 0) return [];
  // A max-heap by `better`: the worst of the kept items at the root.
  const heap: number[] = [];
  const worse = (a: number, b: number) => better(a, b) > 0;
  for (let item = 0; item < count; item++) {
    if (heap.length < k) {
      let i = heap.push(item) - 1;
      while (i > 0) {
        const up = (i - 1) >> 1;
        if (!worse(heap[i]!, heap[up]!)) break;
        [heap[i], heap[up]] = [heap[up]!, heap[i]!];
        i = up;
      }
    } else if (better(item, heap[0]!) < 0) {
      heap[0] = item;
      siftDown(heap, worse);
    }
  }
  return heap.sort(better);
}

function siftDown(heap: number[], worse: (a: number, b: number) => boolean): void {
  for (let i = 0; ;) {
    const l = 2 * i + 1;
    const r = l + 1;
    let top = i;
    if (l < heap.length && worse(heap[l]!, heap[top]!)) top = l;
    if (r < heap.length && worse(heap[r]!, heap[top]!)) top = r;
    if (top === i) return;
    [heap[i], heap[top]] = [heap[top]!, heap[i]!];
    i = top;
  }
}
