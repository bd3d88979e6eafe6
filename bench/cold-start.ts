/**
 * Cold start with and without the syntax tier, beside the raw server's time to ready, on one
 * repository: each run starts lspgate in a child process on a new cache directory and asks, at
 * once, search_symbols (the first answer: how long, which index_state), then get_file_outline of
 * the first hit's file, then index_folder (the semantic catalog's completion); it notes when the
 * syntax pass was done and the child's peak RSS. The runs alternate `LSPGATE_SYNTAX=on` and `off`
 * (the catalog as it was before the tier: every answer waits for the servers), then the raw
 * server is started and waited for with the same readiness rule.
 *
 *   node dist/bench/cold-start.js [--root DIR | --files N] [--lang ts|go|py|php] [--query Q] [--runs N]
 */
import { fork } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { WorkspaceCatalog } from '../src/catalog/catalog.js';
import { Gateway } from '../src/gateway/gateway.js';
import { generateRepo } from './gen-repo.js';
import { listSourceFiles, type Query } from './query-set.js';
import { loadShippedEntry, RawLspClient } from './raw-client.js';
import { WORKLOADS } from './workloads.js';

const SERVER: Record<string, string> = { ts: 'typescript-language-server', go: 'gopls', py: 'pyright', php: 'intelephense' };

export interface ColdRun {
  mode: 'syntax' | 'servers only';
  first_search_ms: number;
  first_search_state: string;
  outline_ms: number;
  outline_state: string;
  syntax_ready_ms: number;
  catalog_ms: number;
  catalog_state: string;
  files: number;
  symbols: number;
  peak_rss_mb: number;
  load: number;
}

const arg = (name: string) => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
};
const ms = (t0: number) => Math.round(performance.now() - t0);

/** The child: one cold lspgate, in-process, measured from before the gateway exists. */
async function child(root: string, query: string, mode: ColdRun['mode']): Promise<ColdRun> {
  const cacheDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lspgate-cold-start-'));
  const load = os.loadavg()[0]!;
  const t0 = performance.now();
  const g = await Gateway.create({ root, cacheDir });
  try {
    const cat = (await g.workspaceFor(root)).catalog as WorkspaceCatalog;
    let syntaxReady = 0;
    const search = g.run('search_symbols', { query, max_results: 5, output_format: 'json' });
    const ready = cat.tier.whenReady().then(() => (syntaxReady = ms(t0)));
    const first = (await search).result as unknown as { results: { file: string }[]; _meta: { index_state: string } };
    const firstMs = ms(t0);
    const t1 = performance.now();
    const file = first.results[0]?.file;
    const outline = file ? ((await g.run('get_file_outline', { file, output_format: 'json' })).result as unknown as { _meta: { index_state: string } }) : undefined;
    const outlineMs = ms(t1);
    const built = (await g.run('index_folder', { path: root, output_format: 'json' })).result as unknown as { state: string; files: number; symbols: number };
    const catalogMs = ms(t0);
    await ready;
    return {
      mode,
      first_search_ms: firstMs,
      first_search_state: first._meta.index_state,
      outline_ms: outlineMs,
      outline_state: outline?._meta.index_state ?? '-',
      syntax_ready_ms: syntaxReady,
      catalog_ms: catalogMs,
      catalog_state: built.state,
      files: built.files,
      symbols: built.symbols,
      peak_rss_mb: Math.round(process.resourceUsage().maxRSS / 1024),
      load: +load.toFixed(1),
    };
  } finally {
    await g.close();
    fs.rmSync(cacheDir, { recursive: true, force: true });
  }
}

function runChild(root: string, query: string, mode: ColdRun['mode']): Promise<ColdRun> {
  return new Promise((resolve, reject) => {
    const env = { ...process.env, LSPGATE_SYNTAX: mode === 'syntax' ? 'on' : 'off' };
    const c = fork(fileURLToPath(import.meta.url), ['--child', root, query, mode], { env, stdio: ['ignore', 'pipe', 'inherit', 'ipc'] });
    c.on('message', (m) => resolve(m as ColdRun));
    c.on('exit', (code) => (code === 0 ? undefined : reject(new Error(`cold-start child exited ${code}`))));
  });
}

/** The raw server from spawn to ready (its readiness rule, kicked by one file's documentSymbol). */
async function rawToReady(root: string, lang: string): Promise<number> {
  const entry = loadShippedEntry(SERVER[lang]!);
  const cacheDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lspgate-cold-raw-'));
  const files = listSourceFiles(root, entry);
  const t0 = performance.now();
  const client = await RawLspClient.start(entry, root, cacheDir);
  try {
    const kick: Query = { file: files[0]!, name: '', kind: 'function', qualified: '', line: 0, character: 0 };
    await client.waitReady(() => WORKLOADS.documentSymbol.raw(client, root, kick));
    return ms(t0);
  } finally {
    await client.stop();
    fs.rmSync(cacheDir, { recursive: true, force: true });
  }
}

export async function coldStart(root: string, lang: string, query: string, runs: number, log: (s: string) => void): Promise<{ runs: ColdRun[]; raw_ready_ms: number[] }> {
  const out: ColdRun[] = [];
  const raw: number[] = [];
  for (let i = 0; i < runs; i++) {
    for (const mode of ['syntax', 'servers only'] as const) {
      const r = await runChild(root, query, mode);
      log(`cold start ${path.basename(root)} ${mode}: first answer ${r.first_search_ms} ms (${r.first_search_state}), catalog ${r.catalog_ms} ms, peak RSS ${r.peak_rss_mb} MB, load ${r.load}`);
      out.push(r);
    }
    raw.push(await rawToReady(root, lang));
    log(`cold start ${path.basename(root)} raw server ready after ${raw.at(-1)} ms`);
  }
  return { runs: out, raw_ready_ms: raw };
}

export function coldStartTable(name: string, r: { runs: ColdRun[]; raw_ready_ms: number[] }): string {
  const rows = r.runs.map(
    (x) =>
      `| ${name} | ${x.mode} | ${x.files} | ${(x.first_search_ms / 1000).toFixed(1)} s (${x.first_search_state}) | ${x.outline_ms} ms (${x.outline_state}) | ${(x.syntax_ready_ms / 1000).toFixed(1)} s | ${(x.catalog_ms / 1000).toFixed(1)} s | ${x.peak_rss_mb} MB | ${x.load} |`,
  );
  return [
    `| workspace | lspgate | files | first search_symbols after start | then get_file_outline | syntax pass done | semantic catalog done | peak RSS | load |`,
    `|---|---|---:|---:|---:|---:|---:|---:|---:|`,
    ...rows,
    `| ${name} | raw server to ready | | ${r.raw_ready_ms.map((x) => `${(x / 1000).toFixed(1)} s`).join(', ')} | | | | | |`,
  ].join('\n');
}

async function main(): Promise<void> {
  if (process.argv[2] === '--child') {
    const r = await child(process.argv[3]!, process.argv[4]!, process.argv[5] as ColdRun['mode']);
    process.send!(r);
    return;
  }
  const lang = arg('--lang') ?? 'ts';
  const gen = arg('--root') ? undefined : generateRepo({ files: Number(arg('--files') ?? 500), seed: 42 });
  const root = fs.realpathSync(arg('--root') ?? gen!.root);
  try {
    const r = await coldStart(root, lang, arg('--query') ?? 'Service', Number(arg('--runs') ?? 1), (s) => process.stderr.write(`[cold-start] ${s}\n`));
    process.stdout.write(coldStartTable(path.basename(root), r) + '\n');
  } finally {
    if (gen) fs.rmSync(gen.root, { recursive: true, force: true });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  main().then(
    () => process.exit(0),
    (e: unknown) => {
      process.stderr.write(`[cold-start] failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
      process.exit(1);
    },
  );
}
