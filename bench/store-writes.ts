/**
 * The syntax pass's store writes alone, replayed: a corpus (bench/pass-cpu.ts's `gen` or `nm`) is
 * cataloged once by the syntax workers, its entries kept in memory, then written into a new
 * database by CatalogStore as the keeper writes them during a pass (`--per-tx` files to a
 * transaction, 3 by default: what its 20 ms slices hold), `--runs` times, each into a fresh cache.
 * Prints the main thread's CPU of each run (the workers are idle by then), the load and the
 * database's size. Compare two builds by running each build's copy of this file in turn.
 *
 *   node dist/bench/store-writes.js [--corpus gen|nm] [--runs 3] [--per-tx 3]
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { CatalogStore } from '../src/catalog/store.js';
import { LimitsSchema } from '../src/config/schema.js';
import type { FileEntry } from '../src/core/catalog.js';
import { ServiceSyntaxCataloger } from '../src/service/cataloging/syntax-cataloger.js';
import { fixedPolicyKeys } from '../src/service/navigation/resolution-policy.js';
import { corpora } from './pass-cpu.js';

const arg = (name: string) => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
};

function mainThreadS(): number {
  const s = fs.readFileSync(`/proc/self/task/${process.pid}/stat`, 'utf8');
  const f = s.slice(s.lastIndexOf(')') + 2).split(' ');
  return (Number(f[11]) + Number(f[12])) / 100;
}

function dirMb(dir: string): number {
  let n = 0;
  for (const d of fs.readdirSync(dir, { withFileTypes: true, recursive: true })) if (d.isFile()) n += fs.statSync(path.join(d.parentPath, d.name)).size;
  return +(n / 1048576).toFixed(1);
}

async function main(): Promise<void> {
  const corpus = arg('--corpus') ?? 'gen';
  const runs = Number(arg('--runs') ?? 3);
  const perTx = Number(arg('--per-tx') ?? 3);
  const [c] = corpora([corpus], 3500, 3000);
  if (!c) throw new Error(`no corpus ${corpus}`);
  const root = fs.realpathSync(c.root);
  try {
    const syntax = new ServiceSyntaxCataloger({ servers: [], limits: LimitsSchema.parse({}) }, root);
    const rels: string[] = [];
    for (const d of fs.readdirSync(root, { withFileTypes: true, recursive: true }))
      if (d.isFile()) rels.push(path.relative(root, path.join(d.parentPath, d.name)));
    rels.sort();
    const entries: [string, FileEntry][] = [];
    await syntax.catalogMany(
      rels.map((rel) => ({ abs: path.join(root, rel), rel })),
      (rel, entry) => void (entry ? entries.push([rel, entry]) : undefined),
    );
    entries.sort((a, b) => (a[0] < b[0] ? -1 : 1));
    const symbols = entries.reduce((n, [, e]) => n + e.symbols.length, 0);
    for (let r = 0; r < runs; r++) {
      const cacheDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lspgate-store-writes-'));
      try {
        const store = new CatalogStore(cacheDir, 'w', root, (s) => fixedPolicyKeys(s));
        store.load(() => undefined);
        const load = os.loadavg()[0]!;
        const m0 = mainThreadS();
        const t0 = performance.now();
        for (let i = 0; i < entries.length; i += perTx)
          store.batch(() => {
            for (const [rel, entry] of entries.slice(i, i + perTx)) store.writeFile(rel, entry);
          });
        const cpu = mainThreadS() - m0;
        const wall = (performance.now() - t0) / 1000;
        store.close();
        process.stdout.write(
          `${JSON.stringify({ corpus, files: entries.length, symbols, per_tx: perTx, main_cpu_s: +cpu.toFixed(2), wall_s: +wall.toFixed(2), db_mb: dirMb(cacheDir), load: +load.toFixed(1) })}\n`,
        );
      } finally {
        fs.rmSync(cacheDir, { recursive: true, force: true });
      }
    }
  } finally {
    fs.rmSync(c.root, { recursive: true, force: true });
  }
}

main().then(
  () => process.exit(0),
  (e: unknown) => {
    process.stderr.write(`[store-writes] failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
    process.exit(1);
  },
);
