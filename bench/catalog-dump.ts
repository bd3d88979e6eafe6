/**
 * Dumps the syntax catalog of real files — what the syntax workers answer for each (entry or coded
 * error), one line per file in path order — so that two builds can be compared byte for byte
 * (`cmp before.txt after.txt`): a change to the syntax pass must leave every entry identical.
 * Corpora: node_modules TS/JS, GOROOT/src, the Python stdlib, intelephense's PHP stubs; every k-th
 * file in path order, up to --max-files per corpus, read where they are.
 *
 *   node dist/bench/catalog-dump.js --out FILE [--corpora nm,go,py,php] [--max-files 6000]
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { LimitsSchema } from '../src/config/schema.js';
import { ServiceSyntaxCataloger } from '../src/service/cataloging/syntax-cataloger.js';
import { goSrc, pythonStdlib } from './pass-cpu.js';

const arg = (name: string) => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
};

function pick(root: string, exts: RegExp, max: number): string[] {
  const all: string[] = [];
  const walk = (dir: string) => {
    for (const d of fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const p = path.join(dir, d.name);
      if (d.isDirectory() && d.name !== '.bin' && d.name !== '__pycache__' && d.name !== 'site-packages') walk(p);
      else if (d.isFile() && exts.test(d.name) && fs.statSync(p).size < 1_000_000) all.push(path.relative(root, p));
    }
  };
  walk(root);
  const step = Math.max(1, all.length / max);
  const out: string[] = [];
  for (let i = 0; i < all.length && out.length < max; i += step) out.push(all[Math.floor(i)]!);
  return out;
}

async function main(): Promise<void> {
  const out = arg('--out');
  if (!out) throw new Error('--out FILE is required');
  const max = Number(arg('--max-files') ?? 6000);
  const nm = path.resolve(fileURLToPath(import.meta.url), '../../../node_modules');
  const all: Record<string, () => [string | undefined, RegExp]> = {
    nm: () => [nm, /\.(ts|tsx|js|mjs|cjs|mts|cts)$/],
    go: () => [goSrc(), /\.go$/],
    py: () => [pythonStdlib(), /\.py$/],
    php: () => [path.join(nm, 'intelephense/lib/stub'), /\.php$/],
  };
  const fd = fs.openSync(out, 'w');
  for (const name of (arg('--corpora') ?? 'nm,go,py,php').split(',')) {
    const [dir, exts] = all[name]!();
    if (!dir || !fs.existsSync(dir)) {
      process.stderr.write(`[catalog-dump] ${name}: not on this machine\n`);
      continue;
    }
    const root = fs.realpathSync(dir);
    const rels = pick(root, exts, max);
    const lines = new Map<string, string>();
    const syntax = new ServiceSyntaxCataloger({ servers: [], limits: LimitsSchema.parse({}) }, root);
    const t0 = performance.now();
    await syntax.catalogMany(
      rels.map((rel) => ({ abs: path.join(root, rel), rel })),
      (rel, entry, error) => lines.set(rel, JSON.stringify(entry ?? { error })),
    );
    let symbols = 0;
    for (const rel of rels) {
      fs.writeSync(fd, `${name}:${rel}\t${lines.get(rel)}\n`);
      symbols += (JSON.parse(lines.get(rel)!) as { symbols?: unknown[] }).symbols?.length ?? 0;
    }
    process.stderr.write(`[catalog-dump] ${name}: ${rels.length} files, ${symbols} symbols, ${((performance.now() - t0) / 1000).toFixed(1)} s\n`);
  }
  fs.closeSync(fd);
}

main().then(
  () => process.exit(0),
  (e: unknown) => {
    process.stderr.write(`[catalog-dump] failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
    process.exit(1);
  },
);
