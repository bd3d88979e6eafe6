/**
 * `node dist/bench/memory-goals.js [--skip daemon-idle,monorepo,four-clients,store,store-corpora]`, and the last part of
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
 *   - store (bench/store-goals.ts, 3,500 generated files, then up to 3,000 files each of node_modules
 *     TS/JS, GOROOT/src and the Python stdlib where this machine has them; `store-corpora` skips those):
 *     lspgate's own RSS with every operation answered — target ≤ 150 MB — and a warm restart's first
 *     search_symbols since the process started — target ≤ 1 s.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { generateRepo } from './gen-repo.js';
import { corpora } from './pass-cpu.js';

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

type StoreGoals = {
  cold: {
    files: number;
    symbols: number;
    catalog_ms: number;
    rss_mb_after_gc: number;
    rss_mb_after_search_symbols: number;
    rss_mb_after_search_code: number;
    rss_mb_right_after: Record<string, number>;
    rss_mb_settled: Record<string, number>;
    rss_mb_reduced_gc: number;
    peak_rss_mb: number;
    db_mb: number;
  };
  warm: {
    first_outline_ms_since_process_start: number;
    get_symbol_ms_since_process_start: number;
    lookup_by_name_ms_since_process_start: number;
    search_symbols_ms_since_process_start: number;
  };
  warm_search_first: { first_search_ms_since_process_start: number; first_search_ms_after_gateway: number; rss_mb_after_gc: number };
  warm_command?: { bundle_median_ms: number; modules_median_ms: number; bundle_ms: number[]; modules_ms: number[] };
};

const each = (o: Record<string, number>) =>
  Object.entries(o)
    .map(([k, v]) => `${k} ${v}`)
    .join(', ');

/**
 * The workspace database's goals (bench/store-goals.ts) on one repository: lspgate's own RSS with every
 * operation of the cold phase answered — settled (nothing asked for 10 s after each burst: lspgate's idle
 * collection and V8's memory reducer have run, nothing forced), the goal's reading; right after each answer and after a full GC,
 * reported beside it — and the warm restart's first search_symbols, the process's first question, since
 * the process started.
 */
function storeGoals(label: string, r: StoreGoals): MemoryGoal[] {
  const { cold: c, warm: w, warm_search_first: f, warm_command: cmd } = r;
  const viaCommand = cmd
    ? `; through the lspgate command (one-shot, to its exit), median of ${cmd.bundle_ms.length}: ${cmd.bundle_median_ms} ms bundled, ${cmd.modules_median_ms} ms from the modules`
    : '';
  return [
    {
      goal: `${label}: lspgate's own process, ${c.files} files (${c.symbols} symbols), every operation answered (outlines, get_symbol, a name, search_text, get_repo_outline; search_symbols; the first search_code), settled`,
      measured: `settled: ${each(c.rss_mb_settled)} MB RSS; right after each answer, nothing collected: ${each(c.rss_mb_right_after)} MB; after a full GC ${c.rss_mb_after_gc} / ${c.rss_mb_after_search_symbols} / ${c.rss_mb_after_search_code} MB, after a memory-reducing GC ${c.rss_mb_reduced_gc} MB; peak ${c.peak_rss_mb} MB (catalog ${Math.round(c.catalog_ms / 1000)} s; index.db ${c.db_mb} MB)`,
      target: '≤ 150 MB settled',
      met: Math.max(...Object.values(c.rss_mb_settled)) <= 150,
    },
    {
      goal: `${label}: warm restart on the same cache, no file changed: the first search_symbols (the process's first question)`,
      measured: `${f.first_search_ms_since_process_start} ms after the process started (${f.first_search_ms_after_gateway} ms after the gateway), ${f.rss_mb_after_gc} MB RSS; in another process: outline ${w.first_outline_ms_since_process_start} ms, get_symbol ${w.get_symbol_ms_since_process_start} ms, name ${w.lookup_by_name_ms_since_process_start} ms, search_symbols after them ${w.search_symbols_ms_since_process_start} ms${viaCommand}`,
      target: '≤ 1,000 ms',
      met: f.first_search_ms_since_process_start <= 1000,
    },
  ];
}

/** The store's goals on the generated 3,500-file repository and, unless skipped, on this machine's real corpora. */
function store(log: (s: string) => void, realCorpora: boolean): MemoryGoal[] {
  const out = storeGoals('generated repository', runJson('store-goals.js', ['--files', '3500'], log)[0] as StoreGoals);
  if (!realCorpora) return out;
  for (const c of corpora(['nm', 'go', 'py'], 0, 3000)) {
    try {
      out.push(...storeGoals(c.name, runJson('store-goals.js', ['--root', c.root], log)[0] as StoreGoals));
    } finally {
      fs.rmSync(c.root, { recursive: true, force: true });
    }
  }
  return out;
}

export function runMemoryGoals(log: (s: string) => void, skip: ReadonlySet<string> = new Set()): MemoryGoal[] {
  const out: MemoryGoal[] = [];
  if (!skip.has('daemon-idle')) out.push(daemonIdle(log));
  if (!skip.has('monorepo')) out.push(...monorepo(log));
  if (!skip.has('four-clients')) out.push(...fourClients(log));
  if (!skip.has('store')) out.push(...store(log, !skip.has('store-corpora')));
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
