/**
 * Chunk search on real code: catalog build vs chunk + BM25 indexing (overhead), BM25 query p50
 * (warm, the index alone), hybrid p50 with the local embedder, first-ask search_code p50 per mode,
 * one changed file re-indexed (a line inserted mid-file: re-chunk + BM25 + re-embedding of changed
 * chunks into the on-disk vector store), index size on disk, a cold open of the vector store, and
 * recall@10 / MRR of the labelled questions in search-labels.ts.
 *
 *   npm run build && node dist/bench/search-quality.js [--repo zod|py]
 * Copies the sources into a temp directory (node_modules is never walked) and needs pyright /
 * typescript-language-server as configured in servers.json.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { openSqlite } from '../src/chunks/sqlite-handle.js';
import { SqliteVectorStore } from '../src/chunks/vector-store.js';
import { Gateway } from '../src/gateway/gateway.js';
import { defaultEmbedder, rankChunks } from '../src/service/search/chunk-ranking.js';
import { syncChunks } from '../src/service/search/chunk-sync.js';
import { vectorsFor } from '../src/service/search/vector-index.js';
import { indexDbPath } from '../src/store/db.js';
import { type Labelled, PY_JSON_EMAIL, ZOD_CORE } from './search-labels.js';

const here = path.dirname(fileURLToPath(import.meta.url));

interface Repo {
  name: string;
  copy(dest: string): void;
  labels: Labelled[];
  touch: string;
}

const REPOS: Record<string, Repo> = {
  zod: {
    name: 'zod 4 core (TypeScript)',
    copy: (dest) =>
      fs.cpSync(path.resolve(here, '../../node_modules/zod/src/v4/core'), dest, { recursive: true, filter: (p) => !p.includes(`${path.sep}tests`) }),
    labels: ZOD_CORE,
    touch: 'util.ts',
  },
  py: {
    name: 'CPython 3.11 json + email (Python)',
    copy: (dest) => {
      for (const pkg of ['json', 'email'])
        fs.cpSync(`/usr/lib/python3.11/${pkg}`, path.join(dest, pkg), { recursive: true, filter: (p) => !p.includes('__pycache__') });
    },
    labels: PY_JSON_EMAIL,
    touch: 'email/utils.py',
  },
};

function p50(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

const isAnswer = (name: string | undefined, answer: string) => !!name && (name === answer || name.endsWith(`.${answer}`));

async function quality(gateway: Gateway, labels: Labelled[], mode: string) {
  let found = 0;
  let rr = 0;
  const firstAsk: number[] = [];
  const misses: string[] = [];
  for (const l of labels) {
    const t = performance.now();
    const r = (await gateway.run('search_code', { query: l.q, limit: 10, mode, output_format: 'json' })).result as unknown as {
      hits: { chunk: { symbol_name?: string } }[];
    };
    firstAsk.push(performance.now() - t);
    const rank = r.hits.findIndex((h) => isAnswer(h.chunk.symbol_name, l.answer)) + 1;
    if (rank > 0) {
      found++;
      rr += 1 / rank;
    } else misses.push(`${l.q} → ${l.answer} (top: ${r.hits[0]?.chunk.symbol_name ?? '-'})`);
  }
  return {
    recall_at_10: Math.round((found / labels.length) * 1000) / 1000,
    mrr: Math.round((rr / labels.length) * 1000) / 1000,
    first_ask_p50_ms: Math.round(p50(firstAsk) * 100) / 100,
    misses,
  };
}

async function main(): Promise<void> {
  const which = process.argv.includes('--repo') ? process.argv[process.argv.indexOf('--repo') + 1]! : 'zod';
  const repo = REPOS[which]!;
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), `lspgate-sq-${which}-`)));
  const cacheDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lspgate-sq-cache-'));
  repo.copy(root);
  const gateway = await Gateway.create({ root, cacheDir });
  try {
    const ws = await gateway.workspaceFor(undefined);
    let t = performance.now();
    const status = await ws.catalog.build();
    const catalogMs = performance.now() - t;
    t = performance.now();
    const sync = await syncChunks(ws, gateway.context.limits);
    const chunkMs = performance.now() - t;
    const stats = sync.index.stats();
    const modes: Record<string, Awaited<ReturnType<typeof quality>>> = {};
    for (const mode of ['bm25', 'vector', 'hybrid']) modes[mode] = await quality(gateway, repo.labels, mode);
    const vectors = vectorsFor(ws, cacheDir, defaultEmbedder);
    await vectors.update(sync.index, sync.head);
    const hybridWarm: number[] = [];
    for (const l of repo.labels) {
      t = performance.now();
      await rankChunks(sync.index, l.q, undefined, 10, 'hybrid', vectors);
      hybridWarm.push(performance.now() - t);
    }
    const warm: number[] = [];
    for (let i = 0; i < 5; i++) {
      for (const l of repo.labels) {
        t = performance.now();
        sync.index.search(l.q, undefined, 10);
        warm.push(performance.now() - t);
      }
    }
    t = performance.now();
    const db = openSqlite(indexDbPath(cacheDir, ws.id));
    SqliteVectorStore.open(db, defaultEmbedder.identity()).close();
    const coldOpenMs = performance.now() - t;
    db.close();
    // Nine edits of one file, a line inserted mid-file each time (every chunk below moves): the
    // median of each step, its minimum, and the median CPU time of this process (the machine is
    // shared: at a high load average wall time is mostly waiting for a core).
    const recatalog: number[] = [];
    const reindex: number[] = [];
    const reindexCpu: number[] = [];
    const touched = path.join(root, repo.touch);
    let rechunked: string[] = [];
    let embedded = 0;
    for (let i = 0; i < 9; i++) {
      const lines = fs.readFileSync(touched, 'utf8').split('\n');
      lines.splice(Math.floor(lines.length / 2), 0, `${repo.touch.endsWith('.py') ? '#' : '//'} touched ${i}`);
      fs.writeFileSync(touched, lines.join('\n'));
      t = performance.now();
      await ws.catalog.refresh([repo.touch]);
      recatalog.push(performance.now() - t);
      t = performance.now();
      const cpu = process.cpuUsage();
      const s = await syncChunks(ws, gateway.context.limits);
      embedded = (await vectors.update(s.index, s.head)).embedded;
      reindex.push(performance.now() - t);
      const used = process.cpuUsage(cpu);
      reindexCpu.push((used.user + used.system) / 1000);
      rechunked = s.rechunked;
    }
    const vstats = vectors.store.stats();
    const out = {
      repo: repo.name,
      files: status.files,
      symbols: status.symbols,
      chunks: stats.chunk_count,
      bm25_terms: stats.bm25_terms,
      text_bytes: stats.text_bytes,
      catalog_build_ms: Math.round(catalogMs),
      chunk_bm25_index_ms: Math.round(chunkMs),
      overhead_pct: Math.round((chunkMs / catalogMs) * 1000) / 10,
      bm25_p50_ms: Math.round(p50(warm) * 100) / 100,
      hybrid_p50_ms: Math.round(p50(hybridWarm) * 100) / 100,
      hybrid_min_ms: Math.round(Math.min(...hybridWarm) * 100) / 100,
      changed_file_recatalog_p50_ms: Math.round(p50(recatalog) * 10) / 10,
      changed_file_reindex_p50_ms: Math.round(p50(reindex) * 10) / 10,
      changed_file_reindex_min_ms: Math.round(Math.min(...reindex) * 10) / 10,
      changed_file_reindex_cpu_p50_ms: Math.round(p50(reindexCpu) * 10) / 10,
      rechunked,
      reembedded_chunks_last_edit: embedded,
      vector_index_bytes: vstats.size_bytes,
      catalog_bytes: fs.existsSync(path.join(cacheDir, 'workspaces', ws.id, 'index.db'))
        ? fs.statSync(path.join(cacheDir, 'workspaces', ws.id, 'index.db')).size
        : 0,
      vector_store_cold_open_ms: Math.round(coldOpenMs * 10) / 10,
      modes,
      load_average: os.loadavg()[0]!.toFixed(1),
    };
    process.stdout.write(JSON.stringify(out, null, 2) + '\n');
  } finally {
    await gateway.close();
    fs.rmSync(root, { recursive: true, force: true });
    fs.rmSync(cacheDir, { recursive: true, force: true });
  }
}

await main();
