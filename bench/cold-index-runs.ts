/**
 * `index_folder` of a ~500-file TypeScript repository from a cold cache must complete
 * (0 failed files) in 5 of 5 runs, including with the machine loaded by another job. Each run is a
 * new gateway on a new cache dir (cold servers, cold catalog); `--load K` keeps K busy-looping
 * processes running meanwhile (the "other job"); the load average is reported per run.
 *
 *   node dist/bench/cold-index-runs.js [--root DIR | --files 480] [--runs 5] [--load 2]
 */
import { type ChildProcess, fork } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { Gateway } from '../src/gateway/gateway.js';
import { generateRepo } from './gen-repo.js';

const arg = (name: string) => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
};

if (process.argv.includes('--busy-loop')) {
  // the load job: burn a core until killed
  for (;;) Math.sqrt(Math.random());
}

const root = fs.realpathSync(arg('--root') ?? generateRepo({ files: Number(arg('--files') ?? 480) }).root);
const runs = Number(arg('--runs') ?? 5);
const load: ChildProcess[] = Array.from({ length: Number(arg('--load') ?? 0) }, () =>
  fork(fileURLToPath(import.meta.url), ['--busy-loop'], { stdio: 'ignore' }),
);
const results: Record<string, unknown>[] = [];
try {
  for (let i = 0; i < runs; i++) {
    const cacheDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lspgate-cold-index-'));
    const before = os.loadavg()[0]!;
    const t0 = performance.now();
    const gateway = await Gateway.create({ root, cacheDir });
    try {
      const r = (await gateway.run('index_folder', { path: root, output_format: 'json' })).result as unknown as {
        state: string;
        files: number;
        errors: { code: string }[];
      };
      const generations = gateway.context.broker.info().map((s) => s.generation);
      results.push({
        run: i + 1,
        state: r.state,
        files: r.files,
        failed: r.errors.length,
        codes: [...new Set(r.errors.map((e) => e.code))],
        server_generations: generations,
        seconds: +((performance.now() - t0) / 1000).toFixed(1),
        load_before: +before.toFixed(1),
        load_after: +os.loadavg()[0]!.toFixed(1),
      });
    } finally {
      await gateway.close();
      fs.rmSync(cacheDir, { recursive: true, force: true });
    }
    process.stderr.write(JSON.stringify(results.at(-1)) + '\n');
  }
} finally {
  for (const c of load) c.kill('SIGKILL');
}
const complete = results.filter((r) => r.state === 'ready' && r.failed === 0).length;
process.stdout.write(JSON.stringify({ root, runs, load_jobs: load.length, complete, results }, null, 1) + '\n');
