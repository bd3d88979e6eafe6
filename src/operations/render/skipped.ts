/**
 * `skipped` as the end of a markdown answer: the files an answer left out, each with its error.
 */
import type { Skipped } from '../contracts/skipped.js';

/** The skipped files as the end of a markdown answer (the text ends with a newline either way). */
export function skippedMarkdown(skipped: Skipped): string {
  if (!skipped.length) return '\n';
  return (
    ['', '', `Skipped (${skipped.length} file(s) left out of this answer):`, ...skipped.map((s) => `- ${s.file} (${s.code}): ${s.reason}`)].join('\n') + '\n'
  );
}
