/**
 * Positions in fixture files found by searching text, never hard-coded: 1-based line and column
 * (UTF-16 code units) of the first occurrence of `needle` (after `after`, if given), plus `offset`.
 */
import fs from 'node:fs';
import path from 'node:path';

export interface TextPosition {
  line: number;
  column: number;
}

export function positionOf(root: string, file: string, needle: string, opts: { offset?: number; after?: string } = {}): TextPosition {
  const text = fs.readFileSync(path.join(root, file), 'utf8');
  const from = opts.after ? text.indexOf(opts.after) : 0;
  if (from < 0) throw new Error(`${opts.after} not found in ${file}`);
  const at = text.indexOf(needle, from);
  if (at < 0) throw new Error(`${needle} not found in ${file}`);
  const index = at + (opts.offset ?? 0);
  const before = text.slice(0, index).split('\n');
  return { line: before.length, column: before[before.length - 1]!.length + 1 };
}

/** 1-based line of the first line containing `needle`. */
export function lineOf(root: string, file: string, needle: string, after?: string): number {
  return positionOf(root, file, needle, after ? { after } : {}).line;
}

/** Every 1-based line containing `needle`. */
export function linesWith(root: string, file: string, needle: string): number[] {
  return fs
    .readFileSync(path.join(root, file), 'utf8')
    .split('\n')
    .flatMap((l, i) => (l.includes(needle) ? [i + 1] : []));
}
