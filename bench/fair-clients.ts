/**
 * `node dist/bench/fair-clients.js [--files 400] [--flood 50] [--samples 40] [--root DIR]`: one
 * client's flood against another client's interactive calls, through one `lspgate daemon`. Two
 * spawned `lspgate mcp` thin clients (the real MCP SDK client) on the same root — a generated
 * TypeScript repository (gen-repo.ts) unless --root — in a private XDG_RUNTIME_DIR and cache:
 *   1. unloaded: client B asks search_symbols --samples times, one after another;
 *   2. loaded: client A sends --flood heavy calls at once (search_text over every file, references,
 *      get_context, analyze_impact, search_code, query_relationships, in turn), and B asks
 *      search_symbols one after another until A's last answer arrives.
 * Prints a markdown table (B's p50 / p95 / max in each phase, A's flood wall time and errors) and
 * one JSON line. `--slots N` sets the daemon's LSPGATE_DAEMON_CALLS (default 4; 1000 = every call
 * starts at once, as before the fair scheduler); `--only <operation>` floods with that kind alone;
 * `--profile DIR` runs the daemon under --cpu-prof (the profile lands in DIR when it stops). The
 * response cache is on, as it is for users: identical requests in flight are shared, repeated ones
 * answered from the cache.
 * The daemon is stopped at the end.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';

import { daemonPaths } from '../src/link/paths.js';
import { generateRepo } from './gen-repo.js';
import { summarize, type Summary } from './stats.js';

const { values } = parseArgs({
  options: {
    files: { type: 'string' },
    flood: { type: 'string' },
    samples: { type: 'string' },
    root: { type: 'string' },
    slots: { type: 'string' },
    only: { type: 'string' },
    profile: { type: 'string' },
  },
});
const FILES = Number(values.files ?? 400);
const FLOOD = Number(values.flood ?? 50);
const SAMPLES = Number(values.samples ?? 40);
const cli = path.join(path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..'), 'dist/src/cli/main.js');

const tmp = mkdtempSync(path.join(os.tmpdir(), 'lspgate-fair-clients-'));
const run = path.join(tmp, 'run');
mkdirSync(run, { mode: 0o700 });
const env: Record<string, string> = {
  ...(Object.fromEntries(Object.entries(process.env).filter(([, v]) => typeof v === 'string')) as Record<string, string>),
  XDG_RUNTIME_DIR: run,
  LSPGATE_CACHE_DIR: path.join(tmp, 'cache'),
  LSPGATE_DAEMON: 'require',
  // --slots 1000: as good as no scheduler (every call starts at once), the comparison
  ...(values.slots ? { LSPGATE_DAEMON_CALLS: values.slots } : {}),
};

async function mcpClient(root: string, name: string): Promise<Client> {
  const transport = new StdioClientTransport({ command: process.execPath, args: [cli, 'mcp', '--tools', 'all', '--root', root], env, stderr: 'ignore' });
  const client = new Client({ name, version: '0' });
  await client.connect(transport);
  return client;
}

async function call(c: Client, name: string, args: Record<string, unknown>): Promise<{ ms: number; error?: string }> {
  const t0 = performance.now();
  const r = await c.callTool({ name, arguments: args }, { timeout: 600_000 });
  const ms = performance.now() - t0;
  if (r.isError !== true) return { ms };
  const text = (r.content as { type: string; text?: string }[]).map((x) => x.text ?? '').join('');
  return { ms, error: /"code":\s*"(\w+)"/.exec(text)?.[1] ?? text.slice(0, 80) };
}

/** Names the workspace declares (for B's queries and A's targets), from its sources. */
function names(root: string, files: string[]): Names {
  const classes: string[] = [];
  const functions: string[] = [];
  for (const f of files) {
    const text = readFileSync(path.join(root, f), 'utf8');
    for (const m of text.matchAll(/export class (\w+)/g)) classes.push(m[1]!);
    for (const m of text.matchAll(/export function (\w+)/g)) functions.push(m[1]!);
  }
  return { classes, functions };
}

type Names = { classes: string[]; functions: string[] };

/** The heavy calls A floods with, in turn: whole-file scans, references, call walks, whole-workspace reports. */
const HEAVY: ((n: Names, i: number) => [string, Record<string, unknown>])[] = [
  (_n, i) => ['search_text', { query: `(return|await) [a-z]+\\.${['load', 'save', 'find', 'apply'][i % 4]}[A-Za-z]*\\(`, regex: true, max_results: 200 }],
  (n, i) => ['find_references', { symbol: n.classes[(i * 7) % n.classes.length]! }],
  (n, i) => ['get_context', { symbol: n.functions[(i * 11) % n.functions.length]! }],
  (n, i) => ['analyze_impact', { element: n.functions[(i * 11) % n.functions.length]! }],
  (n, i) => ['search_code', { query: `${n.classes[(i * 7) % n.classes.length]!} validation of the order total`, limit: 20 }],
  () => ['find_dead_code', { max_symbols: 150 }],
  () => ['coverage_report', { max_symbols: 150 }],
  (n, i) => ['query_relationships', { query_type: 'calls-me', target: n.functions[(i * 11) % n.functions.length]!, max_depth: 3 }],
];

/** FLOOD calls, the kinds in turn (or `only` that kind). */
function heavyCalls(n: Names, only?: string): [string, Record<string, unknown>][] {
  const kinds = only ? HEAVY.filter((k) => k(n, 0)[0] === only) : HEAVY;
  if (!kinds.length) throw new Error(`--only ${only}: not one of ${HEAVY.map((k) => k(n, 0)[0]).join(', ')}`);
  return Array.from({ length: FLOOD }, (_, i) => kinds[i % kinds.length]!(n, i));
}

/** Whether the catalog answers with index_state ready (every file cataloged by its server). */
async function ready(c: Client): Promise<boolean> {
  const r = await c.callTool({ name: 'search_symbols', arguments: { query: 'x', output_format: 'json' } }, { timeout: 600_000 });
  return (r.structuredContent as { _meta?: { index_state?: string } } | undefined)?._meta?.index_state === 'ready';
}

async function interactive(b: Client, queries: string[], until: () => boolean, min: number): Promise<number[]> {
  const ms: number[] = [];
  for (let i = 0; ms.length < min || !until(); i++) {
    const r = await call(b, 'search_symbols', { query: queries[i % queries.length]!, max_results: 20 });
    if (r.error) throw new Error(`search_symbols failed: ${r.error}`);
    ms.push(r.ms);
  }
  return ms;
}

const fmt = (s: Summary) => `${s.n} | ${s.p50.toFixed(0)} | ${s.p95.toFixed(0)} | ${s.max.toFixed(0)}`;

async function main(): Promise<void> {
  const repo = values.root ? { root: path.resolve(values.root), files: [] as string[] } : generateRepo({ files: FILES, out: path.join(tmp, 'repo') });
  const n = names(repo.root, repo.files);
  const prof = values.profile ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(values.profile)}`] : [];
  const daemon: ChildProcess = spawn(process.execPath, [...prof, cli, 'daemon'], { env, stdio: 'ignore' });
  const socket = daemonPaths(env.LSPGATE_CACHE_DIR!, env).socket;
  while (!existsSync(socket)) await new Promise((r) => setTimeout(r, 100));
  const a = await mcpClient(repo.root, 'flooding-client');
  const b = await mcpClient(repo.root, 'interactive-client');
  await call(b, 'index_folder', { path: repo.root });
  // measured once the servers have cataloged every file: a catalog still filling in re-indexes its
  // symbol search and saves its snapshot as it goes, stalls that are the catalog's, not the flood's
  for (let i = 0; i < 600 && !(await ready(b)); i++) await new Promise((r) => setTimeout(r, 500));
  const queries = [...n.classes.slice(0, 10), ...n.functions.slice(0, 10)];
  const calls = heavyCalls(n, values.only);
  // warm: each kind of heavy call once (servers loaded, chunk index built), B's queries once
  for (const [name, args] of heavyCalls(n).slice(0, HEAVY.length)) await call(a, name, args);
  await interactive(b, queries, () => true, queries.length);
  const unloaded = summarize(await interactive(b, queries, () => true, SAMPLES));
  let open = calls.length;
  const t0 = performance.now();
  const flood = Promise.all(calls.map(([name, args]) => call(a, name, args).finally(() => open--)));
  const loaded = summarize(await interactive(b, queries, () => open === 0, SAMPLES));
  const results = await flood;
  const floodEnd = performance.now();
  const floodMs = floodEnd - t0;
  const errors = results.filter((r) => r.error).map((r) => r.error!);
  const load = os
    .loadavg()
    .map((x) => x.toFixed(1))
    .join(' ');
  process.stdout.write(
    `\nfairness: ${calls.length} heavy calls from client A, search_symbols from client B, one daemon with ${values.slots ?? 'default'} call slots (${repo.root === values.root ? repo.root : `${FILES} generated files`}; load ${load}; ${os.cpus().length} cores; node ${process.version})\n\n`,
  );
  process.stdout.write('| B: search_symbols | calls | p50 ms | p95 ms | max ms |\n|---|---:|---:|---:|---:|\n');
  process.stdout.write(`| unloaded | ${fmt(unloaded)} |\n| during A's flood | ${fmt(loaded)} |\n\n`);
  process.stdout.write(
    `A flood: ${calls.length} calls in ${(floodMs / 1000).toFixed(1)} s, ${errors.length} errors${errors.length ? ` (${[...new Set(errors)].join(', ')})` : ''}\n`,
  );
  process.stdout.write(JSON.stringify({ flood: FLOOD, unloaded, loaded, flood_ms: Math.round(floodMs), errors }) + '\n');
  await a.close();
  await b.close();
  if (values.profile)
    process.stdout.write(
      `profile: the flood ran from ${((performance.now() - t0) / 1000).toFixed(1)} s to ${((performance.now() - floodEnd) / 1000).toFixed(1)} s before the daemon was stopped\n`,
    );
  spawnSync(process.execPath, [cli, 'daemon', 'stop'], { env });
  await new Promise((r) => daemon.once('exit', r));
}

main()
  .catch((e: unknown) => {
    process.stderr.write(`${(e as Error).stack ?? String(e)}\n`);
    process.exitCode = 1;
  })
  .finally(() => rmSync(tmp, { recursive: true, force: true }));
