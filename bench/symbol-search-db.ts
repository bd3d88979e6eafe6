/**
 * `node --expose-gc dist/bench/symbol-search-db.js [--files 3500] [--root DIR]`: search_symbols'
 * ranking from the workspace database (db-symbol-search.ts) against the in-heap SearchTexts, in one
 * process on one catalog (gen-repo's, seed 42, unless --root): per engine the query latency p50 /
 * p95 / max over a deterministic query set (names exact and lower-cased, prefixes, substrings,
 * fuzzy, two words, one and two characters, no match; each with the policy key and a page of 20,
 * as search_symbols asks), the heap each holds after a full GC, SearchTexts' build time, and how
 * many answers differ between the two (must be 0). Prints one JSON object.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';

import type { WorkspaceCatalog } from '../src/catalog/catalog.js';
import { SearchTexts } from '../src/catalog/search-texts.js';
import type { SymbolRanker } from '../src/core/catalog.js';
import { Gateway } from '../src/gateway/gateway.js';
import { searchPolicyKey } from '../src/service/navigation/resolution-policy.js';
import { generateRepo } from './gen-repo.js';
import { createRng } from './seeded-random.js';

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

function heapMb(): number {
  (globalThis as { gc?: () => void }).gc?.();
  return process.memoryUsage().heapUsed / 1048576;
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))]!;
}

const round = (n: number) => Math.round(n * 10) / 10;

function querySet(names: string[]): string[] {
  const rng = createRng(7);
  const out = ['service', 'get', 'handler', 'user repository', 'create order', 'a', 'x', 'id', 'Or', 'zzzqqq'];
  for (let i = 0; i < 30; i++) {
    const n = rng.pick(names);
    const variants = [n, n.toLowerCase(), n.slice(0, 4), n.slice(1, 6), n.replace(/[aeiou]/g, ''), `${n.slice(0, 3)} ${n.slice(-3)}`];
    out.push(variants[i % variants.length]!);
  }
  return out;
}

async function main(): Promise<void> {
  const given = arg('--root');
  const gen = given ? undefined : generateRepo({ files: Number(arg('--files') ?? 3500), seed: 42 });
  const root = given ?? gen!.root;
  const cacheDir = arg('--cache') ?? fs.mkdtempSync(path.join(os.tmpdir(), 'lspgate-symsearch-'));
  const g = await Gateway.create({ root, cacheDir });
  try {
    const ws = await g.openWorkspace(root);
    const cat = ws.catalog as WorkspaceCatalog;
    await cat.complete();
    const parentOf = (id: string) => cat.cached(id);
    const names = [...new Set((await cat.all()).map((s) => s.name))].sort();
    const queries = querySet(names);

    const before = heapMb();
    const db = await cat.searchTexts();
    db.top('service', undefined, 20, searchPolicyKey(db, 'service', parentOf));
    const dbHeap = heapMb() - before;
    const t0 = performance.now();
    const texts = SearchTexts.of(cat.index);
    texts.top('service', undefined, 20, searchPolicyKey(texts, 'service', parentOf));
    const buildMs = performance.now() - t0;
    const textsHeap = heapMb() - before - dbHeap;

    const run = (r: SymbolRanker, q: string) => r.top(q, undefined, 20, searchPolicyKey(r, q, parentOf));
    const times: Record<string, number[]> = { db: [], heap: [] };
    const slow: Record<string, [string, number][]> = { db: [], heap: [] };
    let differ = 0;
    for (let round = 0; round < 3; round++) {
      for (const q of queries) {
        const answers: string[] = [];
        for (const [label, r] of [
          ['db', db],
          ['heap', texts],
        ] as const) {
          const t = performance.now();
          const page = run(r, q);
          const ms = performance.now() - t;
          times[label]!.push(ms);
          if (round === 0) slow[label]!.push([q, round2(ms)]);
          answers.push(`${page.total} ${page.top.map((h) => `${h.symbol.symbol_id} ${h.score}`).join(',')}`);
        }
        if (round === 0 && answers[0] !== answers[1]) {
          differ++;
          process.stderr.write(`differs: ${JSON.stringify(q)}\n`);
        }
      }
    }
    const stats = (xs: number[]) => {
      const s = [...xs].sort((a, b) => a - b);
      return { p50_ms: round(percentile(s, 50)), p95_ms: round(percentile(s, 95)), max_ms: round(s[s.length - 1]!) };
    };
    const status = cat.status();
    const dbFile = path.join(cacheDir, 'workspaces', ws.id, 'index.db');
    process.stdout.write(
      `${JSON.stringify({
        root: given ?? `generated-${gen!.files.length}`,
        files: status.files,
        symbols: status.symbols,
        queries: queries.length,
        load: os.loadavg().map(round),
        db: { ...stats(times.db!), heap_mb: round(dbHeap), slowest: slow.db!.sort((a, b) => b[1] - a[1]).slice(0, 5) },
        heap: { ...stats(times.heap!), heap_mb: round(textsHeap), build_ms: Math.round(buildMs), slowest: slow.heap!.sort((a, b) => b[1] - a[1]).slice(0, 5) },
        answers_differ: differ,
        db_mb: round(fs.statSync(dbFile).size / 1048576),
      })}\n`,
    );
  } finally {
    await g.close();
    if (!arg('--cache')) fs.rmSync(cacheDir, { recursive: true, force: true });
    if (gen) fs.rmSync(gen.root, { recursive: true, force: true });
  }
}

function round2(n: number): number {
  return Math.round(n * 100) / 100;
}

await main();
