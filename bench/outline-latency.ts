/**
 * get_file_outline of one file, in-process, the operation cache cleared between calls: on a new
 * gateway over a catalog already on disk (as after a daemon restart), then warm. Prints each call's
 * time and whether a language server was running.
 *   node dist/bench/outline-latency.js --root DIR --file REL [--detail signatures|names|full] [--calls N]
 * The catalog is built first when the cache directory (--cache, default <root>/../lspgate-bench-cache) has none.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { Gateway } from '../src/gateway/gateway.js';

const args = process.argv.slice(2);
const arg = (name: string) => (args.includes(name) ? args[args.indexOf(name) + 1] : undefined);
const root = fs.realpathSync(arg('--root') ?? process.cwd());
const file = arg('--file');
if (!file) throw new Error('--file REL is required');
const detail = arg('--detail') ?? 'signatures';
const calls = Number(arg('--calls') ?? 3);
const cacheDir = arg('--cache') ?? path.join(path.dirname(root), 'lspgate-bench-cache');

if (!fs.existsSync(path.join(cacheDir, 'workspaces'))) {
  const builder = await Gateway.create({ root, cacheDir });
  const t = performance.now();
  await (await builder.openWorkspace(root)).catalog.build();
  process.stdout.write(`catalog built in ${Math.round(performance.now() - t)} ms\n`);
  await builder.close();
}
const gateway = await Gateway.create({ root, cacheDir });
try {
  process.stdout.write(`get_file_outline ${file} (detail ${detail}), load average ${os.loadavg()[0]!.toFixed(1)}\n`);
  for (let i = 0; i < calls; i++) {
    const t = performance.now();
    const r = await gateway.run('get_file_outline', { file, detail, output_format: 'json' });
    const ms = performance.now() - t;
    process.stdout.write(`call ${i + 1}: ${ms.toFixed(1)} ms, ${r.text.length} bytes, servers running: ${gateway.context.broker.existing().length}\n`);
    gateway.runner.clearOperationCache();
  }
} finally {
  await gateway.close();
}
