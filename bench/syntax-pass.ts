/**
 * The syntax tier's bulk pass on a real tree, alone (no servers): every file the syntax tier parses
 * under DIR, cataloged by the syntax cataloger's worker pool, timed end to end (worker start
 * included). Then, with the pass done, one file parsed again as a changed file is.
 *
 *   node dist/bench/syntax-pass.js --root DIR [--runs 3]
 */
import fs from 'node:fs';
import path from 'node:path';

import { LimitsSchema } from '../src/config/schema.js';
import { ServiceSyntaxCataloger } from '../src/service/cataloging/syntax-cataloger.js';

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

function walk(dir: string, keep: Set<string>, out: string[]): void {
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const abs = path.join(dir, e.name);
    if (e.isDirectory()) walk(abs, keep, out);
    else if (e.isFile() && keep.has(path.extname(e.name).toLowerCase())) out.push(abs);
  }
}

async function main(): Promise<void> {
  const root = fs.realpathSync(arg('--root') ?? '.');
  const runs = Number(arg('--runs') ?? 3);
  const syntax = new ServiceSyntaxCataloger({ servers: [], limits: LimitsSchema.parse({}) }, root);
  const files: string[] = [];
  walk(root, syntax.extensions(), files);
  const jobs = files.map((abs) => ({ abs, rel: path.relative(root, abs).split(path.sep).join('/') }));
  const bytes = files.reduce((n, f) => n + fs.statSync(f).size, 0);
  const times: number[] = [];
  let entries = 0;
  let errors = 0;
  for (let r = 0; r < runs; r++) {
    entries = 0;
    errors = 0;
    const t0 = performance.now();
    await syntax.catalogMany(jobs, (_rel, entry) => void (entry ? entries++ : errors++));
    times.push(performance.now() - t0);
  }
  const one = jobs[Math.floor(jobs.length / 2)]!;
  const buf = fs.readFileSync(one.abs);
  const st = fs.statSync(one.abs);
  const t1 = performance.now();
  await syntax.catalogOne(one.abs, one.rel, { bytes: buf, size: st.size, mtimeMs: st.mtimeMs });
  const oneMs = performance.now() - t1;
  times.sort((a, b) => a - b);
  process.stdout.write(
    `| ${path.basename(root)} | ${jobs.length} files, ${(bytes / 1e6).toFixed(1)} MB | ${entries} entries, ${errors} errors | bulk pass median ${times[Math.floor(times.length / 2)]!.toFixed(0)} ms (runs: ${times.map((t) => t.toFixed(0)).join(', ')}) | one changed file ${oneMs.toFixed(1)} ms |\n`,
  );
}

main().then(
  () => process.exit(0),
  (e: unknown) => {
    process.stderr.write(`[syntax-pass] failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
    process.exit(1);
  },
);
