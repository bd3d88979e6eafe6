/**
 * Cold start of the one catalog, beside the servers-only catalog and the raw server's time to
 * ready, on one repository: each run starts lspgate in a child process on a new cache directory
 * and asks, at once, search_symbols (the first answer: how long, which index_state), then
 * get_file_outline of the first hit's file, then find_definition of the first hit — by name in one
 * run, by its file and line in the next (each run cold: the definition starts the server) — then
 * index_folder; it notes when the syntax pass was done, lspgate's own RSS then, and the process tree's
 * memory (lspgate and every server it started: /proc) at the first answer and at its peak. Two more
 * runs ask find_definition of that same hit at once, before anything else — by name, then by its file
 * and line — on a cold catalog: a name asked while the syntax pass runs (the answer says whether it
 * came before the pass ended and marked as building). The runs alternate the one
 * catalog with servers started after the pass (`after-syntax`), started only on demand, and
 * `LSPGATE_SYNTAX=off` (every file through its server's documentSymbol, as before), then the raw
 * server is started and waited for with the same readiness rule.
 *
 *   node dist/bench/cold-start.js [--root DIR | --files N] [--lang ts|go|py|php] [--query Q] [--runs N] [--at-once-only]
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
/** `search first`: search_symbols, outline, then the definition; `at once`: the definition of a known hit first. */
export type ColdAsk = 'search first' | 'at once';
type Hit = { file: string; name: string; line: number };

export interface ColdRun {
  mode: ColdMode;
  asked: ColdAsk;
  def_by: 'name' | 'position';
  def_ms: number;
  /** The definition's answer: its first location, index_state, and whether it came before the pass ended marked as building. */
  def_at: string;
  def_state: string;
  def_before_pass: boolean;
  def_building: boolean;
  hit?: Hit;
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
  /** lspgate's own RSS (its worker threads included, no server) when the syntax pass ended, and after index_folder. */
  rss_after_pass_mb: number;
  rss_end_mb: number;
  /** At-once runs: lspgate's RSS once its idle parse workers have ended (IDLE_MS after the last parse), -1 otherwise. */
  rss_settled_mb: number;
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
type DefAnswer = { definitions: { file: string; line: number }[]; _meta: { index_state: string; warnings?: string[] } };

/** find_definition by name or by position; its first location, state and whether it was marked as building. */
async function definition(g: Gateway, hit: Hit, defBy: ColdRun['def_by']): Promise<Pick<ColdRun, 'def_at' | 'def_state' | 'def_building'>> {
  const input = defBy === 'name' ? { symbol: hit.name } : { file: hit.file, line: hit.line };
  const r = await g.run('find_definition', { ...input, output_format: 'json' }).catch((e: unknown) => ({ result: { error: String(e) } }));
  const a = r.result as unknown as Partial<DefAnswer> & { error?: string };
  if (!a.definitions) return { def_at: a.error ?? '?', def_state: '-', def_building: false };
  const first = a.definitions[0];
  return {
    def_at: first ? `${first.file}:${first.line}` : '(none)',
    def_state: a._meta!.index_state,
    def_building: (a._meta!.warnings ?? []).some((w) => w.includes('still building')),
  };
}

const rssMb = () => Math.round(process.memoryUsage().rss / 1024 / 1024);

async function child(root: string, query: string, mode: ColdMode, defBy: ColdRun['def_by'], known?: Hit): Promise<ColdRun> {
  const cacheDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lspgate-cold-start-'));
  const load = os.loadavg()[0]!;
  let peak = 0;
  const sampler = setInterval(() => (peak = Math.max(peak, treeMb())), 250);
  const t0 = performance.now();
  const g = await Gateway.create({ root, cacheDir });
  try {
    const cat = (await g.workspaceFor(root)).catalog as WorkspaceCatalog;
    let syntaxReady = 0;
    let rssAfterPass = 0;
    const ready = cat.tier.whenReady().then(() => {
      syntaxReady = ms(t0);
      rssAfterPass = rssMb();
    });
    if (known)
      return await atOnce(g, cat, root, known, defBy, { mode, t0, load, ready, peak: () => peak, syntaxReady: () => syntaxReady, rss: () => rssAfterPass });
    const search = g.run('search_symbols', { query, max_results: 5, output_format: 'json' });
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
    const def = hit ? await definition(g, hit, defBy) : { def_at: '-', def_state: '-', def_building: false };
    const defMs = hit ? ms(t2) : -1;
    const defBeforePass = !cat.tier.ready;
    const built = (await g.run('index_folder', { path: root, output_format: 'json' })).result as unknown as { state: string; files: number; symbols: number };
    const catalogMs = ms(t0);
    await ready;
    clearInterval(sampler);
    peak = Math.max(peak, treeMb());
    return {
      mode,
      asked: 'search first',
      def_by: defBy,
      def_ms: defMs,
      ...def,
      def_before_pass: defBeforePass,
      ...(hit ? { hit: { file: hit.file, name: hit.name, line: hit.line } } : {}),
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
      rss_after_pass_mb: rssAfterPass,
      rss_end_mb: rssMb(),
      rss_settled_mb: -1,
      load: +load.toFixed(1),
    };
  } finally {
    clearInterval(sampler);
    await g.close();
    fs.rmSync(cacheDir, { recursive: true, force: true });
  }
}

interface AtOnceClock {
  mode: ColdMode;
  t0: number;
  load: number;
  ready: Promise<void>;
  peak(): number;
  syntaxReady(): number;
  rss(): number;
}

/** The definition of a known hit asked first, on a cold catalog (no search before it), then index_folder. */
async function atOnce(g: Gateway, cat: WorkspaceCatalog, root: string, hit: Hit, defBy: ColdRun['def_by'], c: AtOnceClock): Promise<ColdRun> {
  const def = await definition(g, hit, defBy);
  const defMs = ms(c.t0);
  const defBeforePass = !cat.tier.ready;
  const firstMb = treeMb();
  const built = (await g.run('index_folder', { path: root, output_format: 'json' })).result as unknown as { state: string; files: number; symbols: number };
  const catalogMs = ms(c.t0);
  await c.ready;
  const rssEnd = rssMb();
  // the syntax pool ends its workers 20 s after their last parse (syntax-pool.ts IDLE_MS)
  await new Promise((resolve) => setTimeout(resolve, 22_000));
  return {
    mode: c.mode,
    asked: 'at once',
    def_by: defBy,
    def_ms: defMs,
    ...def,
    def_before_pass: defBeforePass,
    tree_mb_first: firstMb,
    tree_mb_peak: Math.max(c.peak(), treeMb()),
    tree_mb_peak_syntax: -1,
    first_search_ms: -1,
    first_search_state: '-',
    outline_ms: -1,
    outline_state: '-',
    syntax_ready_ms: c.syntaxReady(),
    catalog_ms: catalogMs,
    catalog_state: built.state,
    files: built.files,
    symbols: built.symbols,
    peak_rss_mb: Math.round(process.resourceUsage().maxRSS / 1024),
    rss_after_pass_mb: c.rss(),
    rss_end_mb: rssEnd,
    rss_settled_mb: rssMb(),
    load: +c.load.toFixed(1),
  };
}

function runChild(root: string, query: string, mode: ColdMode, defBy: ColdRun['def_by'], known?: Hit): Promise<ColdRun> {
  return new Promise((resolve, reject) => {
    const env = {
      ...process.env,
      LSPGATE_SYNTAX: mode === 'servers only' ? 'off' : 'on',
      LSPGATE_SERVER_START: mode === 'on-demand' ? 'on-demand' : 'after-syntax',
    };
    const argv = ['--child', root, query, mode, defBy, ...(known ? [JSON.stringify(known)] : [])];
    // the young-generation cap the `lspgate` command runs with (its shebang): the RSS measured is the shipped process's
    const execArgv = [...process.execArgv.filter((a) => !a.startsWith('--max-semi-space-size')), '--max-semi-space-size=2'];
    const c = fork(fileURLToPath(import.meta.url), argv, { env, execArgv, stdio: ['ignore', 'pipe', 'inherit', 'ipc'] });
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
  opts: { atOnceOnly?: boolean } = {},
): Promise<{ runs: ColdRun[]; raw_ready_ms: number[] }> {
  const out: ColdRun[] = [];
  const raw: number[] = [];
  type Step = [ColdMode, ColdRun['def_by'], ColdAsk];
  const searchFirst: Step[] = [
    ['after-syntax', 'position', 'search first'],
    ['on-demand', 'name', 'search first'],
    ['servers only', 'name', 'search first'],
  ];
  const plan: Step[] = [
    ['after-syntax', 'name', 'search first'],
    ...(opts.atOnceOnly ? [] : searchFirst),
    ['after-syntax', 'name', 'at once'],
    ['after-syntax', 'position', 'at once'],
  ];
  let hit: Hit | undefined;
  for (let i = 0; i < runs; i++) {
    for (const [mode, defBy, asked] of plan) {
      if (asked === 'at once' && !hit) continue;
      const r = await runChild(root, query, mode, defBy, asked === 'at once' ? hit : undefined);
      hit ??= r.hit;
      log(
        `cold start ${path.basename(root)} ${mode}, ${asked}: first answer ${r.first_search_ms} ms (${r.first_search_state}), definition by ${defBy} ${r.def_ms} ms (${r.def_at}, ${r.def_state}${r.def_building ? ', marked building' : ''}${r.def_before_pass ? ', before the pass ended' : ''}), pass ${r.syntax_ready_ms} ms, catalog ${r.catalog_ms} ms, lspgate ${r.rss_after_pass_mb} MB after the pass (${r.rss_end_mb} MB after index_folder, ${r.rss_settled_mb} MB once its parse workers ended), tree ${r.tree_mb_first}/${r.tree_mb_peak_syntax}/${r.tree_mb_peak} MB, load ${r.load}`,
      );
      out.push(r);
    }
    if (opts.atOnceOnly) continue;
    raw.push(await rawToReady(root, lang));
    log(`cold start ${path.basename(root)} raw server ready after ${raw.at(-1)} ms`);
  }
  return { runs: out, raw_ready_ms: raw };
}

export function coldStartTable(name: string, r: { runs: ColdRun[]; raw_ready_ms: number[] }): string {
  const rows = r.runs.map((x) => {
    const atOnce = x.asked === 'at once';
    const search = atOnce ? 'not asked' : `${(x.first_search_ms / 1000).toFixed(1)} s (${x.first_search_state})`;
    const outline = atOnce ? '—' : `${x.outline_ms} ms (${x.outline_state})`;
    const marks = [x.def_state, ...(x.def_building ? ['marked building'] : []), ...(x.def_before_pass ? ['before the pass ended'] : [])].join(', ');
    const def = `${x.def_by}: ${(x.def_ms / 1000).toFixed(1)} s${atOnce ? ' from start' : ''} → ${x.def_at} (${marks})`;
    const peakSyntax = x.tree_mb_peak_syntax < 0 ? '—' : `${x.tree_mb_peak_syntax} MB`;
    return `| ${name} | ${x.mode}, ${x.asked} | ${x.files} | ${search} | ${outline} | ${def} | ${(x.syntax_ready_ms / 1000).toFixed(1)} s | ${(x.catalog_ms / 1000).toFixed(1)} s | ${x.rss_after_pass_mb} MB / ${x.rss_settled_mb < 0 ? '—' : `${x.rss_settled_mb} MB`} / ${x.peak_rss_mb} MB | ${x.tree_mb_first} MB / ${peakSyntax} / ${x.tree_mb_peak} MB | ${x.load} |`;
  });
  // each at-once run by name beside the by-position run that follows it (same round, nearest load)
  const atOnce = r.runs.filter((x) => x.asked === 'at once' && x.mode === 'after-syntax');
  const ratios = atOnce.flatMap((x, i) => {
    const next = atOnce[i + 1];
    return x.def_by === 'name' && next?.def_by === 'position' ? [x.def_ms / next.def_ms] : [];
  });
  const ratio = ratios.length
    ? [
        `\nAsked at once on a cold catalog, find_definition by name took ${ratios.map((x) => `${x.toFixed(2)}x`).join(', ')} the same question by position (target ≤ 1.5x).`,
      ]
    : [];
  return [
    `| workspace | lspgate, asked | files | first search_symbols after start | then get_file_outline | find_definition (cold server) | syntax pass done | index_folder done | lspgate RSS after the pass / once its parse workers ended / peak | process tree at first answer / peak before a semantic question / peak | load |`,
    `|---|---|---:|---:|---:|---|---:|---:|---:|---:|---:|`,
    ...rows,
    ...(r.raw_ready_ms.length
      ? [`| ${name} | raw server to ready | | ${r.raw_ready_ms.map((x) => `${(x / 1000).toFixed(1)} s`).join(', ')} | | | | | | | |`]
      : []),
    ...ratio,
  ].join('\n');
}

async function main(): Promise<void> {
  if (process.argv[2] === '--child') {
    const known = process.argv[7] ? (JSON.parse(process.argv[7]) as Hit) : undefined;
    const r = await child(process.argv[3]!, process.argv[4]!, process.argv[5] as ColdMode, process.argv[6] as ColdRun['def_by'], known);
    process.send!(r);
    return;
  }
  const lang = arg('--lang') ?? 'ts';
  const gen = arg('--root') ? undefined : generateRepo({ files: Number(arg('--files') ?? 500), seed: 42 });
  const root = fs.realpathSync(arg('--root') ?? gen!.root);
  try {
    const log = (s: string) => process.stderr.write(`[cold-start] ${s}\n`);
    const r = await coldStart(root, lang, arg('--query') ?? 'Service', Number(arg('--runs') ?? 1), log, {
      atOnceOnly: process.argv.includes('--at-once-only'),
    });
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
