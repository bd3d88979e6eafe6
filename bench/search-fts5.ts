/**
 * The lexical side of search_code, MiniSearch (in the heap) against FTS5 (chunks_fts in SQLite),
 * on the 43 developer questions of search-questions.ts. Each repo is copied, cataloged with a
 * Gateway and chunked once; the same chunks are then written to an FTS5 index (chunk-fts.ts) in a
 * temporary database. Per question and engine: raw top 5 (the engine's order alone) and the
 * search_code pipeline's top 5 (over-fetched to 50, implementation before tests, copies and split
 * pieces folded: chunk-ranking.ts). Also the FTS5 weights given on the command line
 * (`--weights 4,2,2,1,1`), each engine's query p50, and the FTS5 build time.
 *
 *   npm run build && LSPGATE_SERVER_START=on-demand node dist/bench/search-fts5.js [zod] [go] [py] [--weights a,b,c,d,e]
 * Needs node:sqlite (Node >= 22.13).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { ChunkFts } from '../src/chunks/chunk-fts.js';
import { HeapChunkIndex } from '../src/chunks/chunk-index.js';
import { chunkMatcher } from '../src/chunks/filter.js';
import { openSqlite } from '../src/chunks/sqlite-handle.js';
import type { Chunk } from '../src/chunks/types.js';
import { Gateway } from '../src/gateway/gateway.js';
import { foldCopies, implementationFirst, type RankedChunk } from '../src/service/search/chunk-ranking.js';
import { syncChunks } from '../src/service/search/chunk-sync.js';
import { type Answer, GO_JSON, PY_EMAIL_JSON, type Question, ZOD } from './search-questions.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const TOP = 5;
const FETCH = 50;

const REPOS: Record<string, { copy(dest: string): void; questions: Question[] }> = {
  zod: {
    copy: (dest) =>
      fs.cpSync(path.resolve(here, '../../node_modules/zod/src/v4/core'), dest, { recursive: true, filter: (p) => !p.includes(`${path.sep}locales`) }),
    questions: ZOD,
  },
  go: {
    copy: (dest) => {
      fs.cpSync('/usr/lib/go-1.23/src/encoding/json', dest, { recursive: true, filter: (p) => !p.includes(`${path.sep}testdata`) });
      fs.writeFileSync(path.join(dest, 'go.mod'), 'module example.com/json\n\ngo 1.23\n');
    },
    questions: GO_JSON,
  },
  py: {
    copy: (dest) => {
      for (const pkg of ['json', 'email'])
        fs.cpSync(`/usr/lib/python3.11/${pkg}`, path.join(dest, pkg), { recursive: true, filter: (p) => !p.includes('__pycache__') });
    },
    questions: PY_EMAIL_JSON,
  },
};

const normal = (name: string) => name.replace(/[()*]/g, '').replace(/::|#/g, '.');
function answers(c: Chunk, a: Answer): boolean {
  if (c.file !== a.file) return false;
  if (a.line !== undefined && c.start_line <= a.line && a.line <= c.end_line) return true;
  if (a.symbol === undefined || !c.symbol_name) return false;
  const name = normal(c.symbol_name);
  return name === a.symbol || name.endsWith(`.${a.symbol}`);
}

const pipeline = (q: string, cs: Chunk[]) =>
  foldCopies(
    implementationFirst(
      cs.map((chunk): RankedChunk => ({ chunk, score: { normalized: 0, vector_distance: 0, vector_rank: 0, bm25_score: 0, hybrid_rank: 0 } })),
      q,
    ),
    TOP,
  ).map((r) => r.chunk);

const p50 = (xs: number[]) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function runRepo(key: string, weights: number[] | undefined) {
  const repo = REPOS[key]!;
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), `lspgate-fts-${key}-`)));
  const cacheDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lspgate-fts-cache-'));
  repo.copy(root);
  const gateway = await Gateway.create({ root, cacheDir });
  const db = openSqlite(path.join(cacheDir, 'fts-bench.db'));
  try {
    await gateway.run('index_folder', { path: root, output_format: 'json' });
    await gateway.run('search_code', { query: 'warm up', limit: 1, output_format: 'json' });
    const index = (await syncChunks(await gateway.workspaceFor(undefined), gateway.context.limits)).index;
    // the same chunks in a heap index (MiniSearch) and in FTS5 with the weights asked for
    const heap = new HeapChunkIndex();
    let t = performance.now();
    for (const file of index.indexedFiles()) heap.replaceFile(file, index.fileHash(file) ?? '', [...index.fileChunks(file)]);
    const heapMs = performance.now() - t;
    const fts = new ChunkFts(db);
    if (weights) fts.weights = weights;
    t = performance.now();
    for (const file of index.indexedFiles()) fts.replaceFile(file, index.fileHash(file) ?? '', index.fileChunks(file));
    const buildMs = performance.now() - t;
    const keep = chunkMatcher(undefined);
    const rank = (q: Question, cs: Chunk[]) => cs.findIndex((c) => q.answers.some((a) => answers(c, a))) + 1;
    const score = { mini_raw: 0, mini_pipeline: 0, fts_raw: 0, fts_pipeline: 0 };
    const ms = { mini: [] as number[], fts: [] as number[] };
    const rows = [];
    for (const q of repo.questions) {
      t = performance.now();
      const mini = heap.search(q.q, undefined, FETCH).map((h) => h.chunk);
      ms.mini.push(performance.now() - t);
      t = performance.now();
      const ftsHits = fts.search(q.q, (c) => keep(c), FETCH).map((h) => h.chunk);
      ms.fts.push(performance.now() - t);
      const r = {
        q: q.q,
        mini_raw: rank(q, mini.slice(0, TOP)),
        mini: rank(q, pipeline(q.q, mini)),
        fts_raw: rank(q, ftsHits.slice(0, TOP)),
        fts: rank(q, pipeline(q.q, ftsHits)),
      };
      score.mini_raw += r.mini_raw > 0 ? 1 : 0;
      score.mini_pipeline += r.mini > 0 ? 1 : 0;
      score.fts_raw += r.fts_raw > 0 ? 1 : 0;
      score.fts_pipeline += r.fts > 0 ? 1 : 0;
      rows.push(r);
    }
    return {
      repo: key,
      questions: repo.questions.length,
      chunks: index.chunkCount,
      fts_build_ms: Math.round(buildMs),
      minisearch_build_ms: Math.round(heapMs),
      ...score,
      query_p50_ms: { mini: +p50(ms.mini).toFixed(2), fts: +p50(ms.fts).toFixed(2) },
      rows,
    };
  } finally {
    db.close();
    await gateway.close();
    fs.rmSync(root, { recursive: true, force: true });
    fs.rmSync(cacheDir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const w = args.indexOf('--weights');
  const weights = w >= 0 ? args[w + 1]!.split(',').map(Number) : undefined;
  const picked = args.filter((a) => a in REPOS);
  const out: Awaited<ReturnType<typeof runRepo>>[] = [];
  for (const key of picked.length ? picked : Object.keys(REPOS)) {
    const r = await runRepo(key, weights);
    process.stderr.write(
      `${key}: MiniSearch ${r.mini_pipeline}/${r.questions} (raw ${r.mini_raw}), FTS5 ${r.fts_pipeline}/${r.questions} (raw ${r.fts_raw})\n`,
    );
    out.push(r);
  }
  const sum = (k: 'questions' | 'mini_raw' | 'mini_pipeline' | 'fts_raw' | 'fts_pipeline') => out.reduce((s, r) => s + r[k], 0);
  const summary = {
    weights: weights ?? 'default',
    questions: sum('questions'),
    minisearch_top5: sum('mini_pipeline'),
    minisearch_raw_top5: sum('mini_raw'),
    fts5_top5: sum('fts_pipeline'),
    fts5_raw_top5: sum('fts_raw'),
    load_average: os.loadavg().map((l) => l.toFixed(1)),
  };
  process.stdout.write(JSON.stringify({ summary, repos: out }, null, 2) + '\n');
}

await main();
