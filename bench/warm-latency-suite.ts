/**
 * Performance: (1) operations answered from the catalog through `lspgate mcp --daemon off`
 * over stdio against an empty call measured in the same run, and (2) warm find_definition /
 * find_references in-process and over MCP against the raw server, all interleaved in one loop.
 *
 * The empty call is the MCP `ping` request: the same transport, SDK client and JSON framing as a
 * tool call, with nothing to dispatch, validate or compute — the strictest floor there is.
 * The MCP process runs as shipped (caches on); no sample is a repeated question: round r asks
 * definitions and references at character r + 1 of the name (all three sides the same position;
 * the warm-up asked character 0; names too short for it are left out of that round) and get_file_outline with `depth` 10 - r (deeper
 * than any outline here, so the same answer, but a key the operation cache has not seen). The
 * in-process gateway has its caches invalidated before each warm call, as `npm run bench`'s warm
 * column does. search_symbols, get_symbol and get_repo_outline are never served from the
 * operation cache (they read the catalog every time).
 */
import fs from 'node:fs';
import path from 'node:path';

import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';

import { liveResponseCaches } from '../src/cache/response-cache.js';
import type { ServerEntry } from '../src/config/schema.js';
import { Gateway } from '../src/gateway/gateway.js';
import type { Operation } from '../src/operations/types.js';
import { createLogger } from '../src/util/logger.js';
import type { Query } from './query-set.js';
import { packageRoot, RawLspClient } from './raw-client.js';
import { summarize } from './stats.js';
import { WORKLOADS } from './workloads.js';

export interface WarmLatencyOptions {
  root: string;
  entry: ServerEntry;
  queries: Query[];
  reps: number;
  cacheDir: string;
  operations?: Operation[];
  nodeFlags?: string[];
  /** Output format of the catalog operations over MCP (default markdown: what an agent reads). */
  format?: 'markdown' | 'json';
}

/** Samples (ms) per measured column; errors by column. */
export interface WarmLatencyResult {
  samples: Record<string, number[]>;
  /** CPU time (user + system) of the lspgate mcp process per call, ms, by column (load-independent). */
  cpuPerCallMs: Record<string, number>;
  errors: Record<string, number>;
  errorSamples: Record<string, string>;
}

export const CATALOG_OPS = ['search_symbols', 'get_file_outline', 'get_symbol', 'get_repo_outline'] as const;

const symbolId = (q: Query) => `${q.file}::${q.qualified}#${q.kind}`;

function catalogInput(op: (typeof CATALOG_OPS)[number], q: Query, format: string, rep?: number): Record<string, unknown> {
  switch (op) {
    case 'search_symbols':
      return { query: q.name, output_format: format };
    case 'get_file_outline':
      return { file: q.file, output_format: format, ...(rep !== undefined ? { depth: 10 - rep } : {}) };
    case 'get_symbol':
      return { symbol_id: symbolId(q), output_format: format };
    case 'get_repo_outline':
      return { output_format: format };
  }
}

interface ToolAnswer {
  isError?: boolean;
  content?: { text?: string }[];
}

async function spawnMcp(o: WarmLatencyOptions): Promise<{ client: Client; pid: number | undefined }> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined) env[k] = v;
  env.LSPGATE_CACHE_DIR = path.join(o.cacheDir, 'mcp');
  env.LSPGATE_LOG = 'error';
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [...(o.nodeFlags ?? []), path.join(packageRoot, 'dist/src/cli/main.js'), 'mcp', '--tools', 'all', '--daemon', 'off', '--root', o.root],
    env,
    stderr: 'ignore',
  });
  const client = new Client({ name: 'lspgate-warm-latency', version: '1.0.0' });
  await client.connect(transport);
  return { client, pid: transport.pid ?? undefined };
}

/** utime + stime of a process, ms (Linux /proc; undefined elsewhere). */
function cpuMs(pid: number | undefined): number | undefined {
  if (pid === undefined) return undefined;
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(f[11]) + Number(f[12])) * 1000) / CLOCK_TICKS;
  } catch {
    return undefined;
  }
}
const CLOCK_TICKS = 100;

/**
 * The MCP process's CPU time per call of each column, from batches of calls (the wall-clock p50s
 * move with the machine's load; the CPU each answer costs lspgate does not). At least `min`
 * calls per column, repeated over the queries.
 */
async function cpuPhase(o: WarmLatencyOptions, client: Client, pid: number | undefined, out: WarmLatencyResult, min = 200): Promise<void> {
  const format = o.format ?? 'markdown';
  const batch = async (col: string, one: (q: Query, i: number) => Promise<unknown>) => {
    const before = cpuMs(pid);
    let n = 0;
    while (n < min) for (const q of o.queries) await one(q, n++).catch(() => undefined);
    const after = cpuMs(pid);
    if (before !== undefined && after !== undefined) out.cpuPerCallMs[col] = (after - before) / n;
  };
  await batch('empty (MCP ping)', () => client.ping());
  for (const op of CATALOG_OPS) {
    // get_file_outline: a depth per pass over the queries (7, 6, ...), so the operation cache has
    // not seen the question; 4 passes at most (no generated file nests deeper).
    await batch(`mcp ${op}`, (q, i) =>
      client.callTool({ name: op, arguments: catalogInput(op, q, format, 3 + Math.min(3, Math.floor(i / o.queries.length))) }),
    );
  }
}

export async function runWarmLatency(o: WarmLatencyOptions, log: (s: string) => void = () => undefined): Promise<WarmLatencyResult> {
  const out: WarmLatencyResult = { samples: {}, cpuPerCallMs: {}, errors: {}, errorSamples: {} };
  const push = (col: string, ms: number) => (out.samples[col] ??= []).push(ms);
  const fail = (col: string, why: string) => {
    out.errors[col] = (out.errors[col] ?? 0) + 1;
    out.errorSamples[col] ??= why.slice(0, 300);
  };
  const timed = async (col: string, fn: () => Promise<unknown>) => {
    const t = performance.now();
    try {
      const r = await fn();
      const ms = performance.now() - t;
      const a = r as ToolAnswer | undefined;
      if (a?.isError) fail(col, a.content?.[0]?.text ?? 'isError');
      else push(col, ms);
    } catch (e) {
      fail(col, e instanceof Error ? e.message : String(e));
    }
  };
  log('warm latency: raw server, in-process gateway and lspgate mcp --daemon off starting');
  const raw = await RawLspClient.start(o.entry, o.root, path.join(o.cacheDir, 'raw'));
  const gateway = await Gateway.create({
    root: o.root,
    cacheDir: path.join(o.cacheDir, 'inproc'),
    logger: createLogger('bench', 'error'),
    ...(o.operations ? { operations: o.operations } : {}),
  });
  const { client, pid } = await spawnMcp(o);
  try {
    await raw.waitReady(() => WORKLOADS.documentSymbol.raw(raw, o.root, o.queries[0]!));
    log('warm latency: index_folder over MCP (catalog complete before any sample)');
    await client.callTool({ name: 'index_folder', arguments: { path: o.root, output_format: 'json' } }, { timeout: 3_600_000 });
    await warmUp(o, raw, gateway, client);
    log(`warm latency: ${o.reps} interleaved rounds over ${o.queries.length} queries`);
    const inProcessCpuMs: Record<string, number[]> = {};
    for (let rep = 0; rep < o.reps; rep++) await oneRound(o, rep, { raw, gateway, client, timed, inProcessCpuMs });
    // The bench process's CPU per in-process call (the gateway's work and its JSON-RPC with the server; the load barely moves it).
    for (const [op, list] of Object.entries(inProcessCpuMs)) out.cpuPerCallMs[`in-process ${op}`] = list.reduce((a, b) => a + b, 0) / list.length;
    log('warm latency: CPU time of the MCP process per call');
    await cpuPhase(o, client, pid, out);
  } finally {
    await client.close();
    await gateway.close();
    await raw.stop();
  }
  return out;
}

interface Parties {
  raw: RawLspClient;
  gateway: Gateway;
  client: Client;
  timed: (col: string, fn: () => Promise<unknown>) => Promise<void>;
  /** CPU time of this process (the in-process gateway) per in-process call, ms, by operation. */
  inProcessCpuMs: Record<string, number[]>;
}

/** Every query once on every side (files opened, the server warm, the catalog's files loaded). */
async function warmUp(o: WarmLatencyOptions, raw: RawLspClient, gateway: Gateway, client: Client): Promise<void> {
  const format = o.format ?? 'markdown';
  for (const q of o.queries) {
    for (const kind of ['definition', 'references'] as const) {
      const w = WORKLOADS[kind];
      await w.raw(raw, o.root, q);
      await gateway.run(w.op, w.input(q)).catch(() => undefined);
      await client.callTool({ name: w.op, arguments: w.input(q) }).catch(() => undefined);
    }
    for (const op of CATALOG_OPS) await client.callTool({ name: op, arguments: catalogInput(op, q, format) }).catch(() => undefined);
  }
}

/**
 * One pass over the queries. For each: the empty call, the four catalog operations (MCP), then
 * definition and references on the raw server, in-process and over MCP, the raw call first on
 * every other query (whichever follows pays for the other's after-work on the same two cores).
 */
async function oneRound(o: WarmLatencyOptions, rep: number, p: Parties): Promise<void> {
  const format = o.format ?? 'markdown';
  let turn = rep;
  for (const q of o.queries) {
    await p.timed('empty (MCP ping)', () => p.client.ping());
    for (const op of CATALOG_OPS) {
      await p.timed(`mcp ${op}`, () => p.client.callTool({ name: op, arguments: catalogInput(op, q, format, rep) }));
      await p.timed('empty (MCP ping)', () => p.client.ping());
    }
    // Character rep + 1 of the name (the warm-up asked character 0): a position no side has been asked before.
    if (rep + 1 >= q.name.length) continue;
    const at = { ...q, character: q.character + rep + 1 };
    for (const kind of ['definition', 'references'] as const) {
      const w = WORKLOADS[kind];
      const rawCall = () => p.timed(`raw ${kind}`, () => w.raw(p.raw, o.root, at));
      const rawFirst = turn++ % 2 === 0;
      if (rawFirst) await rawCall();
      for (const c of liveResponseCaches()) c.invalidateWorkspaceAnswers();
      p.gateway.runner.clearOperationCache();
      const c0 = process.cpuUsage();
      await p.timed(`in-process ${w.op}`, () => p.gateway.run(w.op, w.input(at)));
      const c1 = process.cpuUsage(c0);
      (p.inProcessCpuMs[w.op] ??= []).push((c1.user + c1.system) / 1000);
      await p.timed(`mcp ${w.op}`, () => p.client.callTool({ name: w.op, arguments: w.input(at) }));
      if (!rawFirst) await rawCall();
    }
  }
}

const f = (n: number) => (Number.isFinite(n) ? n.toFixed(2) : '—');

/** The docs/performance.md table: catalog operations against the empty call; definition/references against raw. */
export function renderWarmLatency(r: WarmLatencyResult, title: string): string {
  const p50 = (col: string) => summarize(r.samples[col] ?? []).p50;
  const n = (col: string) => r.samples[col]?.length ?? 0;
  const empty = p50('empty (MCP ping)');
  const lines = [`### ${title}`, '', `empty call = MCP ping, p50 ${f(empty)} ms (n ${n('empty (MCP ping)')})`, ''];
  const cpu = (col: string) => r.cpuPerCallMs[col] ?? NaN;
  lines.push(
    '| operation (MCP stdio) | lspgate p50 ms | empty call p50 ms | difference ms | goal ≤ 2 ms | n | lspgate CPU ms/call (empty call) |',
    '|---|---:|---:|---:|---|---:|---:|',
  );
  for (const op of CATALOG_OPS) {
    const d = p50(`mcp ${op}`) - empty;
    lines.push(
      `| ${op} | ${f(p50(`mcp ${op}`))} | ${f(empty)} | ${f(d)} | ${d <= 2 ? 'met' : 'missed'} | ${n(`mcp ${op}`)} | ${f(cpu(`mcp ${op}`))} (${f(cpu('empty (MCP ping)'))}) |`,
    );
  }
  lines.push(
    '',
    '| warm | raw p50 ms | in-process p50 ms | ratio | MCP p50 ms | ratio | goal (def) ≤ 1.10x raw + 1 ms, in-process | in-process CPU ms/call |',
    '|---|---:|---:|---:|---:|---:|---|---:|',
  );
  for (const [kind, op] of [
    ['definition', 'find_definition'],
    ['references', 'find_references'],
  ] as const) {
    const rawP = p50(`raw ${kind}`);
    const inP = p50(`in-process ${op}`);
    const mcpP = p50(`mcp ${op}`);
    const goal = kind === 'definition' ? (inP <= 1.1 * rawP + 1 ? `met (bound ${f(1.1 * rawP + 1)})` : `missed (bound ${f(1.1 * rawP + 1)})`) : '';
    lines.push(`| ${op} | ${f(rawP)} | ${f(inP)} | ${f(inP / rawP)}x | ${f(mcpP)} | ${f(mcpP / rawP)}x | ${goal} | ${f(cpu(`in-process ${op}`))} |`);
  }
  const errs = Object.entries(r.errors);
  if (errs.length) lines.push('', `errors (not in the samples): ${errs.map(([k, v]) => `${k} ${v} (${r.errorSamples[k]})`).join('; ')}`);
  return lines.join('\n') + '\n';
}

/** For the JSON file: p50/p95 per column instead of the samples. */
export function warmLatencySummary(r: WarmLatencyResult): Record<string, unknown> {
  return { ...r, samples: Object.fromEntries(Object.entries(r.samples).map(([k, v]) => [k, summarize(v)])) };
}
