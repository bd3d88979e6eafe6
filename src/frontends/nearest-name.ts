/**
 * The name a person meant when they mistyped one (an operation, a REPL command): what "did you mean"
 * offers.
 */

/** Edits between two short words (insert, delete, replace), or more than `max` when they differ more. */
function editDistance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) row.push(Math.min(prev[j]! + 1, row[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1)));
    prev = row;
  }
  return prev[b.length]!;
}

/**
 * The operation a mistyped name was meant to be: the one a third of its length or fewer edits away
 * (`serch_symbols`, `find-references`; `callers` by its last word), when one is closest.
 */
export function nearestName(name: string, names: readonly string[]): string | undefined {
  const typed = name.toLowerCase().replace(/-/g, '_').slice(0, 100);
  const max = Math.max(1, Math.floor(typed.length / 3));
  let best: string | undefined;
  let bestDistance = max + 1;
  let tie = false;
  for (const n of names) {
    const d = n.endsWith(`_${typed}`) ? 1 : editDistance(typed, n, max);
    if (d < bestDistance) [best, bestDistance, tie] = [n, d, false];
    else if (d === bestDistance) tie = true;
  }
  return best && !tie ? best : undefined;
}
