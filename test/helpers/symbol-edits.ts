/**
 * Shared checks of the symbol edit tests: a preview writes nothing and answers the file's hash; an
 * apply against that hash writes exactly the previewed diff, and every byte outside the edited lines
 * is the old one.
 */
import { createHash } from 'node:crypto';

import { expect } from 'vitest';

import type { ScratchFixture } from './scratch.js';

export const sha = (t: string) => createHash('sha256').update(t).digest('hex');

/**
 * The new file starts with the old bytes before line `line` and ends with the old bytes after
 * `end_line` (an insert keeps line `line` itself after its text; a delete's range ends after the
 * line ending of `end_line`).
 */
export function outsideUnchanged(op: string, before: string, after: string, r: { line: number; end_line: number }): void {
  const b = Buffer.from(before);
  const a = Buffer.from(after);
  const starts = [0];
  for (let i = 0; i < b.length; i++) if (b[i] === 0x0a) starts.push(i + 1);
  const prefix = b.subarray(0, starts[r.line - 1]);
  const insert = op.startsWith('insert');
  const suffixFrom = insert ? starts[r.line - 1]! : op === 'delete_symbol' ? (starts[r.end_line] ?? b.length) : (starts[r.end_line] ?? b.length + 1) - 1;
  const suffix = b.subarray(Math.min(suffixFrom, b.length));
  expect(a.length).toBeGreaterThanOrEqual(prefix.length + suffix.length);
  expect(a.subarray(0, prefix.length).equals(prefix)).toBe(true);
  expect(a.subarray(a.length - suffix.length).equals(suffix)).toBe(true);
}

/** Preview (nothing written), then apply with the preview's edit hash; the checks above. */
export async function applyChecked(fx: ScratchFixture, op: string, args: Record<string, unknown>, file: string) {
  const before = fx.read(file);
  const preview = await fx.run(op, args);
  expect(fx.read(file)).toBe(before);
  expect(preview.content_hash).toBe(sha(before));
  expect(preview.edit_hash).toMatch(/^[0-9a-f]{64}$/);
  const r = await fx.run(op, { ...args, apply: true, expected_hash: preview.edit_hash });
  const after = fx.read(file);
  expect([r.applied, r.new_hash, r.diff]).toEqual([true, sha(after), preview.diff]);
  outsideUnchanged(op, before, after, r as { line: number; end_line: number });
  return { preview, r, before, after };
}
