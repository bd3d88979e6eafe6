/**
 * `node dist/bench/store-goals.js [--files 3500] [--root DIR] [--phase-only cold] [--bare] [--no-code-cache] [--node-flags '…']` (also the `store` row of
 * bench/memory-goals.ts): the workspace database's goals, each phase in a process of its own, started
 * as the lspgate bin starts its Node (src/link/node-memory.ts: its flags and malloc tunables; `--bare`:
 * without the tunables, to compare; `--node-flags`: more Node flags for the phases).
 *   - cold: a gateway catalogs the repository (gen-repo's, seed 42, unless --root), then answers
 *     get_file_outline, get_symbol, a lookup by name, search_text and get_repo_outline back to back;
 *     lspgate's own RSS — target ≤ 150 MB — read three ways: right after each answer, nothing
 *     collected (`rss_mb_right_after`); after a full GC (`rss_mb_after_gc`, the worker threads still
 *     alive); and settled, once nothing was asked for 10 s (lspgate's idle collection and V8's memory
 *     reducer have run)
 *     (`rss_mb_settled`, nothing forced). Then search_symbols (ranked from the database: symbol_texts)
 *     and the RSS again (the three ways); then a BM25 search_code (every file chunked into the database)
 *     and the RSS again, again 21 s later (the workers' idle time: the job worker that chunked has
 *     ended), and after a GC that gives back what V8 keeps committed (`flavor: 'last-resort'`);
 *   - warm: a new process on the same cache, no file changed: the first get_file_outline, get_symbol
 *     by id and lookup by name, then search_symbols, each in ms since the process started (Node's
 *     start and lspgate's imports included) — target ≤ 1 s; the RSS after them;
 *   - warm-search: another new process whose first question is search_symbols, in ms since it started
 *     (and the process's CPU time by then, steadier than the wall time on a loaded machine);
 *   - the same through the `lspgate` command: one-shot `search_symbols --daemon off` to its exit, with
 *     the bundled full CLI and with its modules, in turn (the phases above import the modules).
 * Prints one JSON object.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import module from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';

import type { GatewayOptions } from '../src/gateway/gateway.js';
import { enableCodeCache } from '../src/link/code-cache.js';
import { MALLOC_TUNABLES, NODE_FLAGS } from '../src/link/node-memory.js';
import { IDLE_GC_MS } from '../src/util/idle-gc.js';
import { generateRepo } from './gen-repo.js';
import { median } from './stats.js';

const here = fileURLToPath(import.meta.url);

/**
 * The gateway, loaded when a phase first asks for it: after the phase turned on Node's code cache in its
 * cache directory, as the lspgate command does before it loads anything (src/link/code-cache.ts), so a
 * warm phase loads lspgate's modules as a restarted lspgate would. `--no-code-cache` compares without it.
 */
const Gateway = {
  async create(opts: GatewayOptions) {
    const { Gateway: G } = await import('../src/gateway/gateway.js');
    return G.create(opts);
  },
};
const mb = (bytes: number) => Math.round(bytes / 1048576);

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

function gcRss(): number {
  (globalThis as { gc?: () => void }).gc?.();
  return mb(process.memoryUsage().rss);
}

/**
 * The RSS after a GC that also gives back the heap V8 committed and no longer uses (what a regular
 * gc() leaves committed after a burst of garbage): what is left is live heap and off-heap memory.
 */
function reducedRss(): number {
  (globalThis as { gc?: (o: object) => void }).gc?.({ type: 'major', execution: 'sync', flavor: 'last-resort' });
  return mb(process.memoryUsage().rss);
}

/** Past the worker pools' idle time (20 s): the syntax and job workers a pass or a chunking started have ended. */
const WORKERS_IDLE_MS = 21_000;

/**
 * Past lspgate's idle collection (IDLE_GC_MS after the last work) and V8's own memory reducer (~8 s
 * after allocation slows), which gives back pages the collections left resident: settled at 6.5 s,
 * the Python stdlib's process read 145–159 MB; at 10 s, 117 MB (the same probe, run in turn).
 */
const SETTLE_MS = Math.max(IDLE_GC_MS + 1500, 10_000);

/** The RSS now, nothing collected first. */
function rssNow(): number {
  return mb(process.memoryUsage().rss);
}

/** The RSS once nothing has been asked for SETTLE_MS: what an idle process holds, nothing forced. */
async function settle(): Promise<number> {
  await new Promise((r) => setTimeout(r, SETTLE_MS));
  return rssNow();
}

/** The process's threads (Node's own, libuv's pool, the syntax pass's workers while alive). */
function threads(): number {
  return Number(/Threads:\s+(\d+)/.exec(fs.readFileSync('/proc/self/status', 'utf8'))?.[1] ?? 0);
}

type Run = (op: string, input: Record<string, unknown>) => Promise<Record<string, unknown>>;

/** Source files of a repository, sorted, for the first outline (the generated one's `src/` first: its files are all there). */
function sourceFiles(root: string): string[] {
  const out: string[] = [];
  const walk = (dir: string, rel: string) => {
    for (const d of fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      if (d.name.startsWith('.') || d.name === 'node_modules') continue;
      const r = rel ? `${rel}/${d.name}` : d.name;
      if (d.isDirectory()) walk(path.join(dir, d.name), r);
      else if (d.isFile() && /\.(ts|tsx|js|mjs|go|py|php)$/.test(d.name) && !d.name.endsWith('.d.ts')) out.push(r);
    }
  };
  walk(root, '');
  return [...out.filter((f) => f.startsWith('src/')), ...out.filter((f) => !f.startsWith('src/'))];
}

/** The first top-level symbol of a file with one: its id, name and file (from get_file_outline). */
async function firstSymbol(run: Run, root: string): Promise<{ file: string; id: string; name: string }> {
  for (const rel of sourceFiles(root).slice(0, 200)) {
    const outline = (await run('get_file_outline', { file: rel })) as { symbols: { name: string; kind: string }[] };
    const top = outline.symbols[0];
    if (top) return { file: rel, id: `${rel}::${top.name}#${top.kind}`, name: top.name };
  }
  throw new Error('no file with a symbol among the first 200');
}

async function cold(root: string, cacheDir: string): Promise<Record<string, unknown>> {
  const t0 = performance.now();
  const g = await Gateway.create({ root, cacheDir });
  try {
    const ws = await g.openWorkspace(root);
    await ws.catalog.complete();
    const catalogMs = Math.round(performance.now() - t0);
    const status = ws.catalog.status();
    // what the process holds at once, no collection forced: the moment an answer has been made
    const rightAfter: Record<string, number> = { catalog: rssNow() };
    const run: Run = async (op, input) => (await g.run(op, { ...input, output_format: 'json' })).result as Record<string, unknown>;
    const first = await firstSymbol(run, root);
    rightAfter.outlines = rssNow();
    await run('get_symbol', { symbol_id: first.id });
    rightAfter.get_symbol = rssNow();
    await ws.catalog.lookup(first.name);
    rightAfter.lookup = rssNow();
    await run('search_text', { query: 'return' });
    rightAfter.search_text = rssNow();
    await run('get_repo_outline', {});
    rightAfter.get_repo_outline = rssNow();
    const rss = gcRss();
    const heap = mb(process.memoryUsage().heapUsed);
    const liveThreads = threads();
    // what it holds once nothing is asked for a while: lspgate's idle collection has run (no collection forced)
    const settled: Record<string, number> = { after_answers: await settle() };
    await run('search_symbols', { query: 'service' });
    rightAfter.search_symbols = rssNow();
    const rssBeforeSearchCode = gcRss();
    const heapAfterSymbols = mb(process.memoryUsage().heapUsed);
    settled.after_search_symbols = await settle();
    const t1 = performance.now();
    const code = (await run('search_code', { query: 'parse the service request', mode: 'bm25' })) as unknown as { hits?: unknown[]; results?: unknown[] };
    const searchCodeMs = Math.round(performance.now() - t1);
    rightAfter.search_code = rssNow();
    const afterSearchCode = gcRss();
    settled.after_search_code = await settle();
    const peak = Math.round(process.resourceUsage().maxRSS / 1024);
    await new Promise((r) => setTimeout(r, WORKERS_IDLE_MS - SETTLE_MS));
    settled.workers_ended = rssNow();
    const idle = gcRss();
    const cpu = process.cpuUsage();
    return {
      files: status.files,
      symbols: status.symbols,
      state: status.state,
      catalog_ms: catalogMs,
      rss_mb_right_after: rightAfter,
      rss_mb_settled: settled,
      rss_mb_after_gc: rss,
      heap_used_mb: heap,
      threads: liveThreads,
      rss_mb_after_search_symbols: rssBeforeSearchCode,
      heap_used_mb_after_search_symbols: heapAfterSymbols,
      search_code_ms: searchCodeMs,
      search_code_hits: (code.hits ?? code.results ?? []).length,
      rss_mb_after_search_code: afterSearchCode,
      peak_rss_mb: peak,
      // 21 s later: the job worker that chunked is gone; then what V8 keeps committed is given back too
      rss_mb_workers_ended: idle,
      threads_workers_ended: threads(),
      rss_mb_reduced_gc: reducedRss(),
      // the whole phase's CPU (the pass, the answers, every collection): what memory savings cost
      cpu_s: Math.round((cpu.user + cpu.system) / 1e5) / 10,
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
    const run: Run = async (op, input) => (await g.run(op, { ...input, output_format: 'json' })).result as Record<string, unknown>;
    const since = () => Math.round(performance.now());
    const first = await firstSymbol(run, root);
    const outlineMs = since();
    await run('get_symbol', { symbol_id: first.id });
    const symbolMs = since();
    const ws = await g.openWorkspace(root);
    const named = await ws.catalog.lookup(first.name);
    const lookupMs = since();
    const rss = gcRss();
    const r = (await run('search_symbols', { query: 'service' })) as unknown as { results: unknown[] };
    return {
      first_outline_ms_since_process_start: outlineMs,
      first_outline_ms_after_gateway: Math.round(outlineMs - t),
      get_symbol_ms_since_process_start: symbolMs,
      lookup_by_name_ms_since_process_start: lookupMs,
      lookup_hits: named.length,
      rss_mb_after_gc: rss,
      search_symbols_ms_since_process_start: since(),
      results: r.results.length,
      rss_mb_after_search_symbols: gcRss(),
      peak_rss_mb: Math.round(process.resourceUsage().maxRSS / 1024),
    };
  } finally {
    await g.close();
  }
}

/** A new process whose first question is search_symbols: the issue's "first search after start". */
async function warmSearch(root: string, cacheDir: string): Promise<Record<string, unknown>> {
  const g = await Gateway.create({ root, cacheDir });
  try {
    const t = performance.now();
    const r = (await g.run('search_symbols', { query: 'service', output_format: 'json' })).result as unknown as { results: unknown[] };
    const cpu = process.cpuUsage();
    const main = process.threadCpuUsage();
    return {
      first_search_ms_since_process_start: Math.round(performance.now()),
      first_search_ms_after_gateway: Math.round(performance.now() - t),
      // CPU time by then, every thread's and the main thread's: steadier than the wall time on a loaded machine
      first_search_cpu_ms: Math.round((cpu.user + cpu.system) / 1000),
      first_search_main_thread_cpu_ms: Math.round((main.user + main.system) / 1000),
      results: r.results.length,
      rss_mb_after_gc: gcRss(),
    };
  } finally {
    await g.close();
  }
}

/**
 * The same first search through the `lspgate` command, as a user or an agent starts it on a warm cache:
 * a one-shot `search_symbols --daemon off` started as the bin starts its Node, wall time to its exit
 * (the answer printed, the process ended), with the bundled full CLI and with its modules
 * (LSPGATE_BUNDLE=off), in turn, `runs` pairs.
 */
function commandSearch(root: string, cacheDir: string, runs = 5): Record<string, unknown> {
  process.stderr.write(`[store-goals] warm search through the lspgate command on ${root}\n`);
  const main = path.resolve(path.dirname(here), '../src/cli/main.js');
  const time = (bundle: boolean) => {
    const env: NodeJS.ProcessEnv = { ...process.env, GLIBC_TUNABLES: MALLOC_TUNABLES, LSPGATE_CACHE_DIR: cacheDir, LSPGATE_BUNDLE: bundle ? 'on' : 'off' };
    const t = performance.now();
    const r = spawnSync(process.execPath, [...NODE_FLAGS, main, 'search_symbols', '--root', root, '--query', 'service', '--daemon', 'off', '--json'], {
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    if (r.status !== 0) throw new Error(`lspgate search_symbols exited ${r.status}: ${r.stderr.toString().slice(0, 300)}`);
    return Math.round(performance.now() - t);
  };
  time(true); // the code cache written for both, as a restarted lspgate finds it
  time(false);
  const bundled: number[] = [];
  const modules: number[] = [];
  for (let i = 0; i < runs; i++) {
    bundled.push(time(true));
    modules.push(time(false));
  }
  return {
    bundle_ms: bundled,
    modules_ms: modules,
    bundle_median_ms: median(bundled),
    modules_median_ms: median(modules),
    load: Number(os.loadavg()[0]!.toFixed(1)),
  };
}

function phase(name: string, root: string, cacheDir: string): Record<string, unknown> {
  process.stderr.write(`[store-goals] ${name} on ${root}\n`);
  // started as the lspgate bin starts its Node (its flags and malloc tunables), unless --bare
  const bare = process.argv.includes('--bare');
  const env = bare ? { ...process.env } : { ...process.env, GLIBC_TUNABLES: MALLOC_TUNABLES };
  if (bare) delete env.GLIBC_TUNABLES;
  const extra = arg('--node-flags')?.split(' ').filter(Boolean) ?? [];
  const r = spawnSync(
    process.execPath,
    [
      ...NODE_FLAGS,
      ...extra,
      '--expose-gc',
      here,
      '--phase',
      name,
      '--root',
      root,
      '--cache',
      cacheDir,
      ...(process.argv.includes('--no-code-cache') ? ['--no-code-cache'] : []),
    ],
    {
      env,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  if (r.status !== 0) throw new Error(`${name} phase exited ${r.status}`);
  return JSON.parse(r.stdout.trim().split('\n').pop()!) as Record<string, unknown>;
}

const phaseName = arg('--phase');
if (phaseName) {
  if (!process.argv.includes('--no-code-cache')) enableCodeCache({ ...process.env, LSPGATE_CACHE_DIR: arg('--cache')! });
  const result = await (phaseName === 'cold' ? cold : phaseName === 'warm-search' ? warmSearch : warm)(arg('--root')!, arg('--cache')!);
  process.stdout.write(`${JSON.stringify(result)}\n`);
  module.flushCompileCache?.();
  process.exit(0);
} else {
  const given = arg('--root');
  const gen = given ? undefined : generateRepo({ files: Number(arg('--files') ?? 3500), seed: 42 });
  const root = given ?? gen!.root;
  const cacheDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lspgate-store-goals-'));
  try {
    const only = arg('--phase-only');
    const c = phase('cold', root, cacheDir);
    const w = only === 'cold' ? undefined : phase('warm', root, cacheDir);
    const ws = only === 'cold' ? undefined : phase('warm-search', root, cacheDir);
    const cmd = only === 'cold' ? undefined : commandSearch(root, cacheDir);
    process.stdout.write(
      `${JSON.stringify({ root: given ?? `generated-${gen!.files.length}`, cold: c, warm: w, warm_search_first: ws, warm_command: cmd })}\n`,
    );
  } finally {
    fs.rmSync(cacheDir, { recursive: true, force: true });
    if (gen) fs.rmSync(gen.root, { recursive: true, force: true });
  }
}
