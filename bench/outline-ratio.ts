/**
 * Outline cost per file size bucket(the target: at the default detail, an outline of any
 * file over 200 lines costs ≤ 30% of the file's tokens). Up to `perBucket` files per bucket, in
 * path order; answers measured as compact JSON including `_meta`, as the runner counts them.
 */
import fs from 'node:fs';
import path from 'node:path';

import type { Gateway } from '../src/gateway/gateway.js';

const BUCKETS: [string, number, number][] = [
  ['≤ 50 lines', 0, 50],
  ['51–200 lines', 51, 200],
  ['201–500 lines', 201, 500],
  ['> 500 lines', 501, Infinity],
];
const DETAILS = ['names', 'signatures', 'full'] as const;

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.floor((s.length - 1) / 2)]! : NaN;
}

export async function outlineRatios(gateway: Gateway, root: string, files: string[], perBucket = 15): Promise<string> {
  const out = ['| File size | files | names | signatures (default) median / worst | full |', '|---|---:|---:|---:|---:|'];
  for (const [label, lo, hi] of BUCKETS) {
    const inBucket = files
      .map((f) => ({ f, text: fs.readFileSync(path.join(root, f), 'utf8') }))
      .filter(({ text }) => {
        const n = text.split('\n').length;
        return n >= lo && n <= hi;
      })
      .slice(0, perBucket);
    if (!inBucket.length) continue;
    const ratios: Record<(typeof DETAILS)[number], number[]> = { names: [], signatures: [], full: [] };
    for (const { f, text } of inBucket) {
      for (const detail of DETAILS) {
        const r = (await gateway.run('get_file_outline', { file: f, detail, output_format: 'json' })).result;
        ratios[detail].push(Buffer.byteLength(JSON.stringify(r)) / Buffer.byteLength(text));
      }
    }
    const pct = (x: number) => `${(x * 100).toFixed(0)}%`;
    out.push(
      `| ${label} | ${inBucket.length} | ${pct(median(ratios.names))} | ${pct(median(ratios.signatures))} / ${pct(Math.max(...ratios.signatures))} | ${pct(median(ratios.full))} |`,
    );
  }
  return out.join('\n') + '\n';
}
