/**
 * Previews (the `preview` field of locations): at most 10 lines around a location, `{ lines, start_line }`,
 * 1-based. Default: the line before, the line, the line after.
 */
import { z } from 'zod';

export const PreviewSchema = z.object({
  lines: z.array(z.string()).min(1).max(10).describe('Source lines (at most 10)'),
  start_line: z.number().int().positive().describe('1-based line number of the first line'),
});
export type Preview = z.infer<typeof PreviewSchema>;

/** Lines are cut to this many characters (minified sources would blow the budget otherwise). */
export const MAX_PREVIEW_LINE = 240;

export function preview(lines: string[], line1: number, before = 1, after = 1): Preview {
  const b = Math.max(0, Math.min(before, 9));
  const a = Math.max(0, Math.min(after, 9 - b));
  const first = Math.max(1, line1 - b);
  const last = Math.min(Math.max(lines.length, 1), line1 + a);
  const out: string[] = [];
  for (let l = first; l <= last; l++) {
    const t = lines[l - 1] ?? '';
    out.push(t.length > MAX_PREVIEW_LINE ? t.slice(0, MAX_PREVIEW_LINE) + '…' : t);
  }
  if (out.length === 0) out.push('');
  return { lines: out, start_line: first };
}
