import type { SkipReason } from './file-filter.js';
/**
 * Why a build cataloged nothing, in the walk's words: `ready` over no file read as "all done" when
 * nothing matched (a folder of unsupported files, everything ignored, a failed parse pass).
 */
export function emptyReason(skipped: Partial<Record<SkipReason, number>>, passError: string | undefined): string {
  if (passError) return `the syntax pass failed (${passError}) and no server cataloged a file`;
  const left = Object.entries(skipped)
    .filter(([, n]) => (n ?? 0) > 0)
    .sort((a, b) => (b[1] ?? 0) - (a[1] ?? 0));
  if (!left.length) return 'the walk found no file under the root';
  const total = left.reduce((a, [, n]) => a + (n ?? 0), 0);
  return `nothing matched the walk: ${total} file(s) and folder(s) left out (${left.map(([why, n]) => `${why} ${n}`).join(', ')})`;
}
