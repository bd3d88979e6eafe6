/**
 * The chunk index's two hashes, the single source of truth for every caller (chunker, stale check,
 * verify_citation): a chunk's id is sha256(file + "\n" + start_line + ":" + end_line + "\n" +
 * content_sha256), and content_sha256 is the sha256 of the raw text with no normalisation. A
 * renamed file changes every id on purpose: rename tracking is the caller's business (a citation names file and lines, and is checked by them).
 */
import { sha256 } from '../util/hash.js';

export function contentSha256(text: string): string {
  return sha256(text);
}

export function chunkId(file: string, startLine: number, endLine: number, contentSha: string): string {
  return sha256(`${file}\n${startLine}:${endLine}\n${contentSha}`);
}

/** The raw text of lines [start, end] (1-based, inclusive) of already split lines. */
export function linesText(lines: readonly string[], start: number, end: number): string {
  return lines.slice(start - 1, end).join('\n');
}

/** Lines as the catalog counts them (any of \r\n, \r, \n ends a line). */
export function splitLines(text: string): string[] {
  return text.split(/\r\n|\r|\n/);
}
