/**
 * `node dist/bench/store-goals.js [--files 3500] [--root DIR]` (also the `store` row of
 * bench/memory-goals.ts): the workspace database's goals, each phase in a process of its own.
 *   - cold: a gateway catalogs the repository (gen-repo's, seed 42, unless --root), then answers
 *     search_symbols, search_text, get_repo_outline, get_file_outline, get_symbol and (BM25)
 *     search_code; lspgate's own RSS after a full GC before and after search_code, and its peak RSS
 *     — target ≤ 150 MB;
 *   - warm: a new process on the same cache, no file changed: the first search_symbols answer, in ms
 *     since the process started (Node's start and lspgate's imports included) — target ≤ 1 s.
 * Prints one JSON object.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';

import { Gateway } from '../src/gateway/gateway.js';
import { generateRepo } from './gen-repo.js';

const here = fileURLToPath(import.meta.url);
const mb = (bytes: number) => Math.round(bytes / 1048576);

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

function gcRss(): number {
  (globalThis as { gc?: () => void }).gc?.();
  return mb(process.memoryUsage().rss);
}

async function cold(root: string, cacheDir: string): Promise<Record<string, unknown>> {
  const t0 = performance.now();
  const g = await Gateway.create({ root, cacheDir });
  try {
    const ws = await g.openWorkspace(root);
    await ws.catalog.complete();
    const catalogMs = Math.round(performance.now() - t0);
    const status = ws.catalog.status();
    const run = async (op: string, input: Record<string, unknown>) => (await g.run(op, { ...input, output_format: 'json' })).result as Record<string, unknown>;
    const hits = (await run('search_symbols', { query: 'service' })) as unknown as { results: { symbol_id: string; file: string }[] };
    await run('search_text', { query: 'return' });
    await run('get_repo_outline', {});
    const first = hits.results[0];
    if (first) {
      await run('get_file_outline', { file: first.file });
      await run('get_symbol', { symbol_id: first.symbol_id });
    }
    const rssBeforeSearchCode = gcRss();
    const t1 = performance.now();
    const code = (await run('search_code', { query: 'parse the service request', mode: 'bm25' })) as unknown as { hits?: unknown[]; results?: unknown[] };
    const searchCodeMs = Math.round(performance.now() - t1);
    return {
      files: status.files,
      symbols: status.symbols,
      state: status.state,
      catalog_ms: catalogMs,
      rss_mb_before_search_code: rssBeforeSearchCode,
      search_code_ms: searchCodeMs,
      search_code_hits: (code.hits ?? code.results ?? []).length,
      rss_mb_after_gc: gcRss(),
      heap_used_mb: mb(process.memoryUsage().heapUsed),
      peak_rss_mb: Math.round(process.resourceUsage().maxRSS / 1024),
      db_mb: mb(fs.statSync(path.join(cacheDir, 'workspaces', ws.id, 'index.db')).size),
    };
  } finally {
    await g.close();
  }
}

async function warm(root: string, cacheDir: string): Promise<Record<string, unknown>> {
  const g = await Gateway.create({ root, cacheDir });
  try {
    const t = performance.now();
    const r = (await g.run('search_symbols', { query: 'service', output_format: 'json' })).result as unknown as { results: unknown[] };
    const firstAnswerMs = Math.round(performance.now());
    return {
      first_answer_ms_since_process_start: firstAnswerMs,
      first_answer_ms_after_gateway: Math.round(firstAnswerMs - t),
      results: r.results.length,
      rss_mb_after_gc: gcRss(),
      peak_rss_mb: Math.round(process.resourceUsage().maxRSS / 1024),
    };
  } finally {
    await g.close();
  }
}

function phase(name: string, root: string, cacheDir: string): Record<string, unknown> {
  process.stderr.write(`[store-goals] ${name} on ${root}\n`);
  const r = spawnSync(process.execPath, ['--max-semi-space-size=2', '--expose-gc', here, '--phase', name, '--root', root, '--cache', cacheDir], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  if (r.status !== 0) throw new Error(`${name} phase exited ${r.status}`);
  return JSON.parse(r.stdout.trim().split('\n').pop()!) as Record<string, unknown>;
}

const phaseName = arg('--phase');
if (phaseName) {
  const result = await (phaseName === 'cold' ? cold : warm)(arg('--root')!, arg('--cache')!);
  process.stdout.write(`${JSON.stringify(result)}\n`);
  process.exit(0);
} else {
  const given = arg('--root');
  const gen = given ? undefined : generateRepo({ files: Number(arg('--files') ?? 3500), seed: 42 });
  const root = given ?? gen!.root;
  const cacheDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lspgate-store-goals-'));
  try {
    const c = phase('cold', root, cacheDir);
    const w = phase('warm', root, cacheDir);
    process.stdout.write(`${JSON.stringify({ root: given ?? `generated-${gen!.files.length}`, cold: c, warm: w })}\n`);
  } finally {
    fs.rmSync(cacheDir, { recursive: true, force: true });
    if (gen) fs.rmSync(gen.root, { recursive: true, force: true });
  }
}
