/**
 * Top-5 hit rate of search_code on the developer questions of search-questions.ts, next to a
 * BM25-only baseline. Each repo is copied into a temp directory, opened with a Gateway,
 * `index_folder`-ed, then every question is asked with `search_code` (default ranking: BM25 over
 * the chunks with names, signatures and doc comments weighted, then copies and split pieces
 * folded, implementation before tests unless the question asks for tests). The baseline ranks
 * the same synced chunk index by raw BM25 score alone (ChunkIndex.search, the same field weights,
 * no folding, no implementation-first), top 5. A question is a hit when one of its answers is
 * among the top 5.
 *
 *   npm run build && LSPGATE_SERVER_START=on-demand node dist/bench/search-questions-run.js [zod] [go] [py]
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import type { Chunk } from '../src/chunks/types.js';
import { Gateway } from '../src/gateway/gateway.js';
import { syncChunks } from '../src/service/search/chunk-sync.js';
import { type Answer, GO_JSON, PY_EMAIL_JSON, type Question, ZOD } from './search-questions.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const TOP = 5;

interface Repo {
  name: string;
  copy(dest: string): void;
  questions: Question[];
}

const REPOS: Record<string, Repo> = {
  zod: {
    name: 'zod 4 core (TypeScript)',
    copy: (dest) =>
      fs.cpSync(path.resolve(here, '../../node_modules/zod/src/v4/core'), dest, {
        recursive: true,
        filter: (p) => !p.includes(`${path.sep}locales`),
      }),
    questions: ZOD,
  },
  go: {
    name: 'Go 1.23 encoding/json',
    copy: (dest) => {
      fs.cpSync('/usr/lib/go-1.23/src/encoding/json', dest, { recursive: true, filter: (p) => !p.includes(`${path.sep}testdata`) });
      fs.writeFileSync(path.join(dest, 'go.mod'), 'module example.com/json\n\ngo 1.23\n');
    },
    questions: GO_JSON,
  },
  py: {
    name: 'CPython 3.11 json + email (Python)',
    copy: (dest) => {
      for (const pkg of ['json', 'email'])
        fs.cpSync(`/usr/lib/python3.11/${pkg}`, path.join(dest, pkg), { recursive: true, filter: (p) => !p.includes('__pycache__') });
    },
    questions: PY_EMAIL_JSON,
  },
};

/** `(*T).m`, `T::m`, `T#m` all read as `T.m`. */
const normal = (name: string) => name.replace(/[()*]/g, '').replace(/::|#/g, '.');

function answers(c: Pick<Chunk, 'file' | 'symbol_name' | 'start_line' | 'end_line'>, a: Answer): boolean {
  if (c.file !== a.file) return false;
  if (a.line !== undefined && c.start_line <= a.line && a.line <= c.end_line) return true;
  if (a.symbol === undefined || !c.symbol_name) return false;
  const name = normal(c.symbol_name);
  return name === a.symbol || name.endsWith(`.${a.symbol}`);
}

const pieceOf = (c: Chunk, lines: string) => {
  const [start, end] = lines.split('-').map(Number);
  return { ...c, start_line: start!, end_line: end! };
};

const label = (c: Pick<Chunk, 'file' | 'symbol_name' | 'start_line'>) => `${c.file}:${c.start_line} ${c.symbol_name ?? '-'}`;

async function runRepo(key: string, repo: Repo) {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), `lspgate-sqq-${key}-`)));
  const cacheDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lspgate-sqq-cache-'));
  repo.copy(root);
  const gateway = await Gateway.create({ root, cacheDir });
  try {
    const indexed = (await gateway.run('index_folder', { path: root, output_format: 'json' })).result as unknown as { state: string; files: number };
    const rows: { q: string; lspgate: number; baseline: number; top: string[]; baseTop: string[] }[] = [];
    for (const q of repo.questions) {
      const r = (await gateway.run('search_code', { query: q.q, limit: TOP, output_format: 'json' })).result as unknown as {
        mode: string;
        hits: { chunk: Chunk; pieces?: string[] }[];
      };
      if (r.mode !== 'bm25') throw new Error(`search_code ranked with ${r.mode}: this bench measures the default BM25 ranking`);
      const sync = await syncChunks(await gateway.workspaceFor(undefined), gateway.context.limits);
      const base = sync.index.search(q.q, undefined, TOP).map((h) => h.chunk);
      const rank = (cs: Pick<Chunk, 'file' | 'symbol_name' | 'start_line' | 'end_line'>[]) => cs.findIndex((c) => q.answers.some((a) => answers(c, a))) + 1;
      // a hit cites the other matching pieces of its split function (`pieces`): a piece spanning the answer counts
      const spans = r.hits.map((h) => [h.chunk, ...(h.pieces ?? []).map((p) => pieceOf(h.chunk, p))]);
      const lspgate = spans.findIndex((cs) => rank(cs) > 0) + 1;
      rows.push({
        q: q.q,
        lspgate,
        baseline: rank(base),
        top: r.hits.map((h) => `${label(h.chunk)}${h.pieces ? ` +${h.pieces.join(',')}` : ''}`),
        baseTop: base.map(label),
      });
    }
    return { repo: repo.name, index_state: indexed.state, files: indexed.files, rows };
  } finally {
    await gateway.close();
    fs.rmSync(root, { recursive: true, force: true });
    fs.rmSync(cacheDir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const picked = process.argv.slice(2).filter((a) => a in REPOS);
  const out = [];
  for (const key of picked.length ? picked : Object.keys(REPOS)) {
    const res = await runRepo(key, REPOS[key]!);
    const n = res.rows.length;
    const hits = res.rows.filter((r) => r.lspgate > 0).length;
    const base = res.rows.filter((r) => r.baseline > 0).length;
    out.push({ ...res, questions: n, lspgate_top5: hits, baseline_top5: base });
    process.stderr.write(`${res.repo}: lspgate ${hits}/${n}, baseline ${base}/${n}\n`);
  }
  const total = out.reduce((s, r) => s + r.questions, 0);
  const summary = {
    questions: total,
    lspgate_top5: out.reduce((s, r) => s + r.lspgate_top5, 0),
    baseline_top5: out.reduce((s, r) => s + r.baseline_top5, 0),
    load_average: os.loadavg().map((l) => l.toFixed(1)),
  };
  process.stdout.write(JSON.stringify({ summary, repos: out }, null, 2) + '\n');
}

await main();
