/**
 * Cold start of the one catalog, beside the servers-only catalog and the raw server's time to
 * ready, on one repository: each run starts lspgate in a child process on a new cache directory
 * and asks, at once, search_symbols (the first answer: how long, which index_state), then
 * get_file_outline of the first hit's file, then find_definition of the first hit — by name in one
 * run, by its file and line in the next (each run cold: the definition starts the server) — then
 * index_folder; it notes when the syntax pass was done, and the process tree's memory (lspgate and
 * every server it started: /proc) at the first answer and at its peak. The runs alternate the one
 * catalog with servers started after the pass (`after-syntax`), started only on demand, and
 * `LSPGATE_SYNTAX=off` (every file through its server's documentSymbol, as before), then the raw
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

export type ColdMode = 'after-syntax' | 'on-demand' | 'servers only';

export interface ColdRun {
  mode: ColdMode;
  def_by: 'name' | 'position';
  def_ms: number;
  tree_mb_first: number;
  tree_mb_peak: number;
  /** The process tree's peak before the first semantic question (in on-demand mode: no server yet). */
  tree_mb_peak_syntax: number;
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

/** RSS in MB of this process and every process below it (the servers and their children), from /proc. */
function treeMb(): number {
  const parent = new Map<number, number>();
  const rss = new Map<number, number>();
  for (const name of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${name}/stat`, 'utf8');
      parent.set(Number(name), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
      const m = /^VmRSS:\s+(\d+)\s+kB/m.exec(fs.readFileSync(`/proc/${name}/status`, 'utf8'));
      rss.set(Number(name), m ? Number(m[1]) : 0);
    } catch {
      // gone meanwhile
    }
  }
  let kb = 0;
  for (const pid of rss.keys()) {
    for (let p: number | undefined = pid; p !== undefined && p > 1; p = parent.get(p)) {
      if (p === process.pid) {
        kb += rss.get(pid) ?? 0;
        break;
      }
    }
  }
  return Math.round(kb / 1024);
}

/** The child: one cold lspgate, in-process, measured from before the gateway exists. */
async function child(root: string, query: string, mode: ColdMode, defBy: ColdRun['def_by']): Promise<ColdRun> {
  const cacheDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lspgate-cold-start-'));
  const load = os.loadavg()[0]!;
  let peak = 0;
  const sampler = setInterval(() => (peak = Math.max(peak, treeMb())), 250);
  const t0 = performance.now();
  const g = await Gateway.create({ root, cacheDir });
  try {
    const cat = (await g.workspaceFor(root)).catalog as WorkspaceCatalog;
    let syntaxReady = 0;
    const search = g.run('search_symbols', { query, max_results: 5, output_format: 'json' });
    const ready = cat.tier.whenReady().then(() => (syntaxReady = ms(t0)));
    const first = (await search).result as unknown as { results: { file: string; name: string; line: number }[]; _meta: { index_state: string } };
    const firstMs = ms(t0);
    const firstMb = treeMb();
    const t1 = performance.now();
    const file = first.results[0]?.file;
    const outline = file
      ? ((await g.run('get_file_outline', { file, output_format: 'json' })).result as unknown as { _meta: { index_state: string } })
      : undefined;
    const outlineMs = ms(t1);
    const hit = first.results[0];
    const peakSyntax = Math.max(peak, treeMb());
    const t2 = performance.now();
    if (hit)
      await g
        .run('find_definition', { ...(defBy === 'name' ? { symbol: hit.name } : { file: hit.file, line: hit.line }), output_format: 'json' })
        .catch(() => undefined);
    const defMs = hit ? ms(t2) : -1;
    const built = (await g.run('index_folder', { path: root, output_format: 'json' })).result as unknown as { state: string; files: number; symbols: number };
    const catalogMs = ms(t0);
    await ready;
    clearInterval(sampler);
    peak = Math.max(peak, treeMb());
    return {
      mode,
      def_by: defBy,
      def_ms: defMs,
      tree_mb_first: firstMb,
      tree_mb_peak: peak,
      tree_mb_peak_syntax: peakSyntax,
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
    clearInterval(sampler);
    await g.close();
    fs.rmSync(cacheDir, { recursive: true, force: true });
  }
}

function runChild(root: string, query: string, mode: ColdMode, defBy: ColdRun['def_by']): Promise<ColdRun> {
  return new Promise((resolve, reject) => {
    const env = {
      ...process.env,
      LSPGATE_SYNTAX: mode === 'servers only' ? 'off' : 'on',
      LSPGATE_SERVER_START: mode === 'on-demand' ? 'on-demand' : 'after-syntax',
    };
    const c = fork(fileURLToPath(import.meta.url), ['--child', root, query, mode, defBy], { env, stdio: ['ignore', 'pipe', 'inherit', 'ipc'] });
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

export async function coldStart(
  root: string,
  lang: string,
  query: string,
  runs: number,
  log: (s: string) => void,
): Promise<{ runs: ColdRun[]; raw_ready_ms: number[] }> {
  const out: ColdRun[] = [];
  const raw: number[] = [];
  for (let i = 0; i < runs; i++) {
    for (const [mode, defBy] of [
      ['after-syntax', 'name'],
      ['after-syntax', 'position'],
      ['on-demand', 'name'],
      ['servers only', 'name'],
    ] as const) {
      const r = await runChild(root, query, mode, defBy);
      log(
        `cold start ${path.basename(root)} ${mode}: first answer ${r.first_search_ms} ms (${r.first_search_state}), definition by ${defBy} ${r.def_ms} ms, catalog ${r.catalog_ms} ms, tree ${r.tree_mb_first}/${r.tree_mb_peak_syntax}/${r.tree_mb_peak} MB, load ${r.load}`,
      );
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
      `| ${name} | ${x.mode} | ${x.files} | ${(x.first_search_ms / 1000).toFixed(1)} s (${x.first_search_state}) | ${x.outline_ms} ms (${x.outline_state}) | ${x.def_by}: ${(x.def_ms / 1000).toFixed(1)} s | ${(x.syntax_ready_ms / 1000).toFixed(1)} s | ${(x.catalog_ms / 1000).toFixed(1)} s | ${x.peak_rss_mb} MB | ${x.tree_mb_first} MB / ${x.tree_mb_peak_syntax} MB / ${x.tree_mb_peak} MB | ${x.load} |`,
  );
  return [
    `| workspace | lspgate | files | first search_symbols after start | then get_file_outline | then find_definition (cold server) | syntax pass done | index_folder done | lspgate peak RSS | process tree at first answer / peak before a semantic question / peak | load |`,
    `|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|`,
    ...rows,
    `| ${name} | raw server to ready | | ${r.raw_ready_ms.map((x) => `${(x / 1000).toFixed(1)} s`).join(', ')} | | | | | | | |`,
  ].join('\n');
}

async function main(): Promise<void> {
  if (process.argv[2] === '--child') {
    const r = await child(process.argv[3]!, process.argv[4]!, process.argv[5] as ColdMode, process.argv[6] as ColdRun['def_by']);
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
