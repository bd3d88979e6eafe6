/**
 * search_symbols alone, in-process: CPU time per call of the operation (markdown, as agents read
 * it) over the warm-latency query names, on a generated repository or --root. Optionally a CPU
 * profile of the measured loop (--profile FILE; bench/profile-summary.ts sums it).
 *
 *   node dist/bench/search-cpu.js [--root DIR] [--files 500] [--queries 20] [--rounds 10]
 *        [--cache-dir DIR] [--profile FILE] [--format markdown|json]
 */
import fs from 'node:fs';
import { Session as InspectorSession } from 'node:inspector/promises';
import os from 'node:os';
import path from 'node:path';

import { Gateway } from '../src/gateway/gateway.js';
import { descriptorOperations } from '../src/operations/defs/descriptors.js';
import { navigationOperations } from '../src/operations/defs/navigation.js';
import { operations as registered } from '../src/operations/registry.js';
import type { Operation } from '../src/operations/types.js';
import { createLogger } from '../src/util/logger.js';
import { generateRepo } from './gen-repo.js';
import { buildQuerySet, listSourceFiles } from './query-set.js';
import { loadShippedEntry } from './raw-client.js';
import { summarize } from './stats.js';

const arg = (name: string, dflt: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1]! : dflt;
};

async function main(): Promise<void> {
  const given = process.argv.includes('--root') ? path.resolve(arg('root', '.')) : undefined;
  const gen = given ? undefined : generateRepo({ files: Number(arg('files', '500')), seed: 42 });
  const root = fs.realpathSync(given ?? gen!.root);
  const keep = process.argv.includes('--cache-dir');
  const cacheDir = keep ? path.resolve(arg('cache-dir', '')) : fs.mkdtempSync(path.join(os.tmpdir(), 'lspgate-search-cpu-'));
  const entry = loadShippedEntry('typescript-language-server');
  const queries = await buildQuerySet({
    root,
    entry,
    files: listSourceFiles(root, entry),
    count: Number(arg('queries', '20')),
    seed: 7,
    cacheDir: path.join(cacheDir, 'qs'),
  });
  const ops = new Map<string, Operation>();
  for (const op of [...registered, ...navigationOperations, ...descriptorOperations]) if (!ops.has(op.name)) ops.set(op.name, op);
  const gateway = await Gateway.create({ root, cacheDir, logger: createLogger('search-cpu', 'error'), operations: [...ops.values()] });
  const format = arg('format', 'markdown');
  try {
    await gateway.run('index_folder', { path: root, output_format: 'json' });
    const names = queries.map((q) => q.name);
    for (const n of names) await gateway.run('search_symbols', { query: n, output_format: format });
    let inspector: InspectorSession | undefined;
    const profileTo = process.argv.includes('--profile') ? arg('profile', '') : undefined;
    if (profileTo) {
      inspector = new InspectorSession();
      inspector.connect();
      await inspector.post('Profiler.enable');
      await inspector.post('Profiler.setSamplingInterval', { interval: 100 });
      await inspector.post('Profiler.start');
    }
    const rounds = Number(arg('rounds', '10'));
    const wall: number[] = [];
    const cpu0 = process.cpuUsage();
    for (let r = 0; r < rounds; r++)
      for (const n of names) {
        const t = performance.now();
        await gateway.run('search_symbols', { query: n, output_format: format });
        wall.push(performance.now() - t);
      }
    const c = process.cpuUsage(cpu0);
    if (inspector && profileTo) {
      const { profile } = await inspector.post('Profiler.stop');
      fs.writeFileSync(profileTo, JSON.stringify(profile));
      inspector.disconnect();
    }
    const s = summarize(wall);
    const load = os.loadavg()[0]!.toFixed(1);
    process.stdout.write(
      `${given ? path.basename(root) : 'generated'}: search_symbols ${wall.length} calls, CPU ${((c.user + c.system) / 1000 / wall.length).toFixed(2)} ms/call, wall p50 ${s.p50.toFixed(2)} p95 ${s.p95.toFixed(2)} ms, load ${load}\n`,
    );
  } finally {
    await gateway.close();
    if (!keep) fs.rmSync(cacheDir, { recursive: true, force: true });
    if (gen) fs.rmSync(gen.root, { recursive: true, force: true });
  }
}

main().then(
  () => process.exit(0),
  (e: unknown) => {
    process.stderr.write(`${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
    process.exit(1);
  },
);
