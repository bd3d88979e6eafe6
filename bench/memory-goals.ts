/**
 * `node dist/bench/memory-goals.js [--skip daemon-idle,monorepo,four-clients,store]`, and the last part of
 * `npm run bench` (`--no-memory` leaves it out): the daemon's and lspgate's memory goals, each run
 * in processes of its own and printed with met/missed:
 *   - daemon-idle (bench/daemon-idle.ts): the daemon after four roots were used once and left, with
 *     one client attached, before and after the servers' idle stop — met when no server of those
 *     roots runs any more;
 *   - monorepo (bench/root-strategy.ts on gen-repo's monorepo: 480 files in 8 packages, 4 Go modules
 *     under a go.work): the RSS of lspgate and its servers after a cold index_folder against one raw
 *     server per language asked documentSymbol of every file — target ≤ 1.3x (private memory shown too);
 *   - four-clients (bench/daemon-clients.ts, 500 generated TypeScript files): four `lspgate mcp` thin
 *     clients of one daemon against one — target ≤ 1.1x, by summed RSS and by summed PSS;
 *   - store (bench/store-goals.ts, 3,500 generated files): lspgate's own RSS after cataloging and
 *     answering — target ≤ 150 MB — and a warm restart's first search — target ≤ 1 s.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { generateRepo } from './gen-repo.js';

const here = path.dirname(fileURLToPath(import.meta.url));
/** The `lspgate` command's own young-generation cap (its shebang). */
const NODE_FLAGS = ['--max-semi-space-size=2'];

export interface MemoryGoal {
  goal: string;
  measured: string;
  target: string;
  met: boolean;
}

function runJson(script: string, args: string[], log: (s: string) => void): Record<string, unknown>[] {
  log(`memory: ${script} ${args.join(' ')}`);
  const r = spawnSync(process.execPath, [...NODE_FLAGS, path.join(here, script), ...args], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (r.status !== 0) throw new Error(`${script} exited ${r.status}: ${r.stderr.slice(-2000)}`);
  // one JSON object, or one per line
  const text = r.stdout.trim();
  try {
    return [JSON.parse(text) as Record<string, unknown>];
  } catch {
    return text.split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
  }
}

type Mem = { sessions: number; rss_mb: number; pss_mb: number };

function daemonIdle(log: (s: string) => void): MemoryGoal {
  const [r] = runJson('daemon-idle.js', [], log) as [{ before_idle_stop: Mem; after_idle_stop: Mem; server_idle_ms: number; stopped_after_s: number }];
  const b = r.before_idle_stop;
  const a = r.after_idle_stop;
  return {
    goal: "daemon after 4 roots used once and left (1 client attached), before → after the servers' idle stop",
    measured: `${b.sessions} servers, ${b.rss_mb} MB RSS (${b.pss_mb} MB PSS) → ${a.sessions} servers, ${a.rss_mb} MB RSS (${a.pss_mb} MB PSS), ${r.stopped_after_s} s after the last use (idle time ${r.server_idle_ms / 1000} s here, 600 s by default)`,
    target: 'no server of those roots left',
    met: a.sessions === 0,
  };
}

function monorepo(log: (s: string) => void): MemoryGoal[] {
  const gen = generateRepo({ files: 480, packages: 8, goModules: 4, seed: 42 });
  try {
    const [ws] = runJson('root-strategy.js', ['--root', gen.root, '--mode', 'workspace', '--sample', '4'], log) as [
      { rss_mb_now: number; rss_anon_mb: number; lspgate_rss_mb: number; state: string },
    ];
    const [raw] = runJson('root-strategy.js', ['--root', gen.root, '--mode', 'raw'], log) as [{ rss_mb_now: number; rss_anon_mb: number }];
    const rss = ws.rss_mb_now / raw.rss_mb_now;
    const anon = ws.rss_anon_mb / raw.rss_anon_mb;
    return [
      {
        goal: `monorepo (${gen.files.length} files, 8 packages + 4 Go modules): lspgate + its servers after a cold index_folder vs one raw server per language`,
        measured: `${ws.rss_mb_now} vs ${raw.rss_mb_now} MB RSS = ${rss.toFixed(2)}x (lspgate's own process ${ws.lspgate_rss_mb} MB; catalog ${ws.state})`,
        target: '≤ 1.3x',
        met: rss <= 1.3,
      },
      {
        goal: 'monorepo, private memory (RssAnon)',
        measured: `${ws.rss_anon_mb} vs ${raw.rss_anon_mb} MB = ${anon.toFixed(2)}x`,
        target: '≤ 1.3x',
        met: anon <= 1.3,
      },
    ];
  } finally {
    fs.rmSync(gen.root, { recursive: true, force: true });
  }
}

function fourClients(log: (s: string) => void): MemoryGoal[] {
  const [r] = runJson('daemon-clients.js', ['--files', '500', '--clients', '4', '--cli-runs', '3'], log) as [
    {
      one_client: { rss_mb: number; pss_mb: number };
      many_clients: { rss_mb: number; pss_mb: number; client_rss_mb: number[] };
      rss_ratio: number;
      pss_ratio: number;
    },
  ];
  return [
    {
      goal: 'four `lspgate mcp` clients of one daemon vs one (500 files), summed RSS',
      measured: `${r.many_clients.rss_mb} vs ${r.one_client.rss_mb} MB = ${r.rss_ratio.toFixed(2)}x (each thin client ${r.many_clients.client_rss_mb.join(', ')} MB RSS)`,
      target: '≤ 1.1x',
      met: r.rss_ratio <= 1.1,
    },
    {
      goal: 'four clients vs one, summed PSS (shared pages split between processes)',
      measured: `${r.many_clients.pss_mb} vs ${r.one_client.pss_mb} MB = ${r.pss_ratio.toFixed(2)}x`,
      target: '≤ 1.1x',
      met: r.pss_ratio <= 1.1,
    },
  ];
}

/** The workspace database's goals (bench/store-goals.ts) on the generated 3,500-file repository. */
function store(log: (s: string) => void): MemoryGoal[] {
  const [r] = runJson('store-goals.js', ['--files', '3500'], log) as [
    {
      cold: {
        files: number;
        symbols: number;
        catalog_ms: number;
        rss_mb_after_gc: number;
        rss_mb_after_search_symbols: number;
        rss_mb_right_after: Record<string, number>;
        rss_mb_settled: Record<string, number>;
        peak_rss_mb: number;
        db_mb: number;
      };
      warm: {
        first_outline_ms_since_process_start: number;
        first_outline_ms_after_gateway: number;
        get_symbol_ms_since_process_start: number;
        lookup_by_name_ms_since_process_start: number;
        search_symbols_ms_since_process_start: number;
        rss_mb_after_gc: number;
      };
    },
  ];
  const { cold: c, warm: w } = r;
  const most = (o: Record<string, number>) => Math.max(...Object.values(o));
  const each = (o: Record<string, number>) =>
    Object.entries(o)
      .map(([k, v]) => `${k} ${v}`)
      .join(', ');
  return [
    {
      goal: `lspgate's own process on ${c.files} generated files (${c.symbols} symbols) after cataloging and answering outlines, get_symbol, a name, search_text`,
      measured: `${c.rss_mb_after_gc} MB RSS after GC, ${c.rss_mb_after_search_symbols} MB once search_symbols ranked, peak ${c.peak_rss_mb} MB (catalog ${Math.round(c.catalog_ms / 1000)} s; index.db ${c.db_mb} MB)`,
      target: '≤ 150 MB',
      met: c.rss_mb_after_gc <= 150,
    },
    {
      goal: `the same process, settled: nothing asked for 6.5 s after each burst (lspgate's idle collection has run), nothing forced`,
      measured: `${each(c.rss_mb_settled)} MB RSS; right after each answer, nothing collected: ${each(c.rss_mb_right_after)} MB`,
      target: '≤ 150 MB settled (right after: reported)',
      met: most(c.rss_mb_settled) <= 150,
    },
    {
      goal: 'warm restart on the same cache, no file changed: the first get_file_outline, get_symbol, name, search_symbols',
      measured: `outline ${w.first_outline_ms_since_process_start} ms after the process started (${w.first_outline_ms_after_gateway} ms after the gateway), get_symbol ${w.get_symbol_ms_since_process_start} ms, name ${w.lookup_by_name_ms_since_process_start} ms, search_symbols ${w.search_symbols_ms_since_process_start} ms; ${w.rss_mb_after_gc} MB RSS`,
      target: '≤ 1,000 ms',
      met: w.get_symbol_ms_since_process_start <= 1000,
    },
  ];
}

export function runMemoryGoals(log: (s: string) => void, skip: ReadonlySet<string> = new Set()): MemoryGoal[] {
  const out: MemoryGoal[] = [];
  if (!skip.has('daemon-idle')) out.push(daemonIdle(log));
  if (!skip.has('monorepo')) out.push(...monorepo(log));
  if (!skip.has('four-clients')) out.push(...fourClients(log));
  if (!skip.has('store')) out.push(...store(log));
  return out;
}

export function renderMemoryGoals(goals: MemoryGoal[]): string {
  const rows = goals.map((g) => `| ${g.goal} | ${g.measured} | ${g.target} | ${g.met ? 'met' : 'missed'} |`);
  return [
    '',
    `Memory goals (load average ${os
      .loadavg()
      .map((x) => x.toFixed(1))
      .join(' ')})`,
    '',
    '| goal | measured | target | result |',
    '|---|---|---|---|',
    ...rows,
    '',
  ].join('\n');
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const i = process.argv.indexOf('--skip');
  const skip = new Set(i >= 0 ? (process.argv[i + 1] ?? '').split(',') : []);
  const goals = runMemoryGoals((s) => process.stderr.write(`[bench] ${s}\n`), skip);
  process.stdout.write(renderMemoryGoals(goals));
}
