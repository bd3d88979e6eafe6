/**
 * Lines of two texts of one file, matched around the one region that differs: the lines before it
 * are the same lines, those after it moved by the region's line shift. An edit by symbol changes one
 * region; a text with several changed regions (a rename) is treated as one region spanning them.
 */
export interface LineMap {
  /** The 1-based line of the disk text that `line` of `side` is, or undefined inside the changed region. */
  toBefore(line: number, side: 'before' | 'after'): number | undefined;
}

export function lineMap(before: string, after: string): LineMap {
  const b = before.split('\n');
  const a = after.split('\n');
  let head = 0;
  while (head < b.length && head < a.length && b[head] === a[head]) head++;
  let tail = 0;
  while (tail < b.length - head && tail < a.length - head && b[b.length - 1 - tail] === a[a.length - 1 - tail]) tail++;
  const shift = a.length - b.length;
  return {
    toBefore(line, side) {
      const n = side === 'before' ? b.length : a.length;
      if (line <= head) return line;
      if (line > n - tail) return side === 'before' ? line : line - shift;
      return undefined;
    },
  };
}
