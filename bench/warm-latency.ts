/**
 * The warm-latency goals alone (bench/warm-latency-suite.ts; `npm run bench` runs the same
 * suite on each of its workspaces):
 *
 *   node dist/bench/warm-latency.js [--root DIR] [--files 500] [--queries 20] [--reps 3]
 *        [--format markdown|json] [--node-flags "FLAGS"] [--json out.json] [--cache-dir DIR]
 *
 * --cache-dir keeps lspgate's caches (catalog snapshots) there between runs, so a re-run on the
 * same --root skips the cold catalog build (the measured calls are the same).
 * Without --root: a generated repository of --files files (bench/gen-repo.ts, seed 42). The
 * workspace is used in place (nothing is edited).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { descriptorOperations } from '../src/operations/defs/descriptors.js';
import { navigationOperations } from '../src/operations/defs/navigation.js';
import { operations as registered } from '../src/operations/registry.js';
import type { Operation } from '../src/operations/types.js';
import { generateRepo } from './gen-repo.js';
import { buildQuerySet, listSourceFiles } from './query-set.js';
import { loadShippedEntry } from './raw-client.js';
import { renderWarmLatency, runWarmLatency } from './warm-latency-suite.js';

const arg = (name: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
};

async function main(): Promise<void> {
  const log = (s: string) => process.stderr.write(`[warm-latency] ${s}\n`);
  const given = arg('root');
  const files = Number(arg('files') ?? 500);
  const gen = given ? undefined : generateRepo({ files, seed: 42 });
  const root = fs.realpathSync(given ?? gen!.root);
  const keep = arg('cache-dir');
  const cacheDir = keep ? path.resolve(keep) : fs.mkdtempSync(path.join(os.tmpdir(), 'lspgate-warm-latency-'));
  fs.mkdirSync(cacheDir, { recursive: true });
  const ops = new Map<string, Operation>();
  for (const op of [...registered, ...navigationOperations, ...descriptorOperations]) if (!ops.has(op.name)) ops.set(op.name, op);
  try {
    const entry = loadShippedEntry('typescript-language-server');
    const all = listSourceFiles(root, entry);
    log(`${root}: ${all.length} files`);
    const queries = await buildQuerySet({ root, entry, files: all, count: Number(arg('queries') ?? 20), seed: 7, cacheDir: path.join(cacheDir, 'qs') });
    const format = arg('format') === 'json' ? 'json' : 'markdown';
    const nodeFlags = (arg('node-flags') ?? '').split(/\s+/).filter(Boolean);
    const r = await runWarmLatency({ root, entry, queries, reps: Number(arg('reps') ?? 3), cacheDir, operations: [...ops.values()], nodeFlags, format }, log);
    const load = os
      .loadavg()
      .map((x) => x.toFixed(1))
      .join(' ');
    const title = `${given ? path.basename(root) : `generated-${files}`} (${all.length} files, ${queries.length} queries, ${format}), load average ${load}`;
    process.stdout.write(renderWarmLatency(r, title));
    const json = arg('json');
    if (json)
      fs.writeFileSync(
        json,
        JSON.stringify({ date: new Date().toISOString(), root, files: all.length, queries: queries.length, loadavg: os.loadavg(), ...r }, null, 2),
      );
  } finally {
    if (!keep) fs.rmSync(cacheDir, { recursive: true, force: true });
    if (gen) fs.rmSync(gen.root, { recursive: true, force: true });
  }
}

main().then(
  () => process.exit(0),
  (e: unknown) => {
    process.stderr.write(`[warm-latency] failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
    process.exit(1);
  },
);
