/**
 * HTTP soak (npm run soak:http; not part of npm test): a spawned `lspgate mcp --http` on a generated
 * TypeScript repository (500 files by default), N real MCP SDK clients over Streamable HTTP, each
 * making M mixed calls. Samples lspgate's own RSS (/proc/<pid>/status) separately from its server
 * process trees' RSS, every 250 ms, and prints both at start, after warm-up, peak and end.
 *
 * Env: LSPGATE_SOAK_FILES (500), LSPGATE_SOAK_CLIENTS (8), LSPGATE_SOAK_CALLS (200 per client),
 *      LSPGATE_SOAK_HEAP=1 (spawn with --heapsnapshot-signal=SIGUSR2 and write a snapshot at the end,
 *      in the temp dir: for finding what grows), LSPGATE_SOAK_NODE_FLAGS (node's flags instead of
 *      those of the `lspgate` command's shebang: for comparing V8 settings).
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';

import { descendants } from '../fixtures/fault-server/proc-utils.js';
import { packageRoot } from '../src/config/load.js';
import { generateRepo } from './gen-repo.js';

const files = Number(process.env.LSPGATE_SOAK_FILES ?? 500);
const clients = Number(process.env.LSPGATE_SOAK_CLIENTS ?? 8);
const perClient = Number(process.env.LSPGATE_SOAK_CALLS ?? 200);
const heap = process.env.LSPGATE_SOAK_HEAP === '1';

interface Sample {
  ownMb: number;
  serversMb: number;
}

/** Current resident set (VmRSS) of one process in kB, 0 when it is gone. */
function rssKb(pid: number): number {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) : 0;
  } catch {
    return 0;
  }
}

/** CPU seconds (user + system) a process has used so far. */
function cpuSeconds(pid: number): number {
  try {
    // fields after the command name (which may hold spaces): state is field 3, utime 14, stime 15
    const rest = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(rest[11]) + Number(rest[12])) / 100;
  } catch {
    return 0;
  }
}

/** The node flags of the `lspgate` command: those its shebang line gives (`#!/usr/bin/env -S node …`). */
function commandFlags(cli: string): string[] {
  if (process.env.LSPGATE_SOAK_NODE_FLAGS !== undefined) return process.env.LSPGATE_SOAK_NODE_FLAGS.split(/\s+/).filter(Boolean);
  const first = fs.readFileSync(cli, 'utf8').split('\n', 1)[0]!;
  return /^#!.*\bnode\b(.*)$/.exec(first)?.[1]!.trim().split(/\s+/).filter(Boolean) ?? [];
}

function sample(pid: number): Sample {
  const own = rssKb(pid);
  const servers = descendants(pid).reduce((sum, p) => sum + rssKb(p), 0);
  return { ownMb: Math.round(own / 1024), serversMb: Math.round(servers / 1024) };
}

async function connect(url: string, token: string): Promise<Client> {
  const transport = new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { Authorization: `Bearer ${token}` } } });
  const client = new Client({ name: 'lspgate-soak', version: '0.0.0' }, {});
  await client.connect(transport);
  return client;
}

/** Mixed calls over the generated repository: outline, search, definition, references, callers, text. */
function callsFor(rels: string[], names: string[], ids: string[]): [string, Record<string, unknown>][] {
  const out: [string, Record<string, unknown>][] = [];
  for (let i = 0; i < 40; i++) {
    const file = rels[(i * 37) % rels.length]!;
    const name = names[(i * 13) % names.length]!;
    out.push(
      ['get_file_outline', { file }],
      ['search_symbols', { query: name.slice(0, 6) }],
      ['find_definition', { symbol: name }],
      ['find_references', { symbol: name }],
      ['find_callers', { symbol: name }],
      ['search_text', { query: name, max_results: 20 }],
      ['get_symbol', { symbol_id: ids[(i * 11) % ids.length]! }],
    );
  }
  return out;
}

async function main(): Promise<void> {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'lspgate-http-soak-'));
  const repo = generateRepo({ files, out: path.join(tmp, 'repo') });
  const cli = path.join(packageRoot(), 'dist/src/cli/main.js');
  const token = 'soak-token';
  // as the `lspgate` command runs (its shebang caps V8's young generation)
  const nodeFlags = commandFlags(cli);
  const args = [...nodeFlags, ...(heap ? ['--heapsnapshot-signal=SIGUSR2'] : []), cli, 'mcp', '--tools', 'all', '--http', '--port', '0', '--root', repo.root];
  const child = spawn(process.execPath, args, {
    cwd: tmp,
    // in its own process with its own servers (what is measured): attached to a daemon, the daemon would
    // hold the servers and catalogs, and this run would leave that daemon behind
    env: { ...process.env, LSPGATE_TOKEN: token, LSPGATE_CACHE_DIR: path.join(tmp, 'cache'), LSPGATE_DAEMON: 'off' },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  const url = await new Promise<string>((resolve, reject) => {
    const t = setInterval(() => {
      const m = /listening on (http:\/\/\S+)/.exec(stderr);
      if (m) {
        clearInterval(t);
        resolve(m[1]!);
      }
    }, 50);
    child.on('exit', (code) => reject(new Error(`lspgate exited ${code}: ${stderr.slice(-2000)}`)));
  });
  const pid = child.pid!;
  // an HTTP server outlives its parent (no stdin to watch): a failed run must not leave it behind
  process.once('exit', () => child.kill('SIGTERM'));
  const start = sample(pid);
  const cpuStart = cpuSeconds(pid);

  process.stderr.write(`lspgate at ${url}; indexing ${files} files\n`);
  const first = await connect(url, token);
  await first.callTool({ name: 'index_folder', arguments: {} }, { timeout: 900_000 });
  const rels = repo.files;
  const outline = (await first.callTool({ name: 'search_symbols', arguments: { query: 'Service', kind: 'function', max_results: 100 } }, { timeout: 900_000 }))
    .structuredContent as {
    results?: { name: string; symbol_id: string }[];
  };
  const names = [...new Set((outline.results ?? []).map((s) => s.name))];
  const ids = (outline.results ?? []).map((s) => s.symbol_id);
  if (names.length === 0) throw new Error('no symbols found in the generated repository');
  const warm = sample(pid);
  const cpuWarm = cpuSeconds(pid);
  process.stderr.write(`indexed; ${names.length} names; load starts\n`);
  if (heap) {
    child.kill('SIGUSR2'); // a snapshot of what lives after indexing, to compare with the end
    await new Promise((r) => setTimeout(r, 8000));
  }

  const samples: Sample[] = [];
  const timer = setInterval(() => samples.push(sample(pid)), 250);
  const plan = callsFor(rels, names, ids);
  let ok = 0;
  let errors = 0;
  const errorCodes = new Map<string, number>();
  const t0 = Date.now();
  await Promise.all(
    Array.from({ length: clients }, async (_, c) => {
      const client = c === 0 ? first : await connect(url, token);
      for (let i = 0; i < perClient; i++) {
        const [name, input] = plan[(i + c * 7) % plan.length]!;
        const r = await client.callTool({ name, arguments: input }, { timeout: 300_000 });
        if (r.isError) {
          errors++;
          const code = /"code":\s*"([A-Z_]+)"/.exec((r.content as { text?: string }[]).map((c) => c.text ?? '').join(''))?.[1] ?? 'UNCODED';
          errorCodes.set(`${name} ${code}`, (errorCodes.get(`${name} ${code}`) ?? 0) + 1);
        } else ok++;
      }
      if (c !== 0) await client.close();
    }),
  );
  const seconds = (Date.now() - t0) / 1000;
  clearInterval(timer);
  const end = sample(pid);
  const cpuEnd = cpuSeconds(pid);
  if (global.gc) global.gc();
  await new Promise((r) => setTimeout(r, 2000));
  const settled = sample(pid);
  if (heap) {
    child.kill('SIGUSR2');
    await new Promise((r) => setTimeout(r, 5000));
  }
  await first.close();
  child.kill('SIGTERM');
  await new Promise((r) => child.once('exit', r));

  const peakOwn = Math.max(...samples.map((s) => s.ownMb), end.ownMb);
  const peakServers = Math.max(...samples.map((s) => s.serversMb), end.serversMb);
  const out = process.stdout;
  out.write(`\nlspgate HTTP soak: ${files} files, ${clients} clients x ${perClient} calls, ${seconds.toFixed(1)} s, ${ok} ok, ${errors} error results\n`);
  out.write(
    `node flags: ${nodeFlags.join(' ') || '(none)'}; lspgate CPU: index_folder ${(cpuWarm - cpuStart).toFixed(1)} s, load ${(cpuEnd - cpuWarm).toFixed(1)} s\n\n`,
  );
  if (errorCodes.size) out.write(`error results by tool and code: ${[...errorCodes].map(([k, n]) => `${k}=${n}`).join(', ')}\n\n`);
  out.write('| moment | lspgate RSS MB | servers RSS MB |\n|---|---:|---:|\n');
  for (const [label, s] of [
    ['start', start],
    ['after index_folder', warm],
    ['peak under load', { ownMb: peakOwn, serversMb: peakServers }],
    ['end of load', end],
    ['2 s later', settled],
  ] as const) {
    out.write(`| ${label} | ${s.ownMb} | ${s.serversMb} |\n`);
  }
  if (heap)
    out.write(
      `\nheap snapshot(s): ${fs
        .readdirSync(tmp)
        .filter((f) => f.endsWith('.heapsnapshot'))
        .map((f) => path.join(tmp, f))
        .join(', ')}\n`,
    );
  else fs.rmSync(tmp, { recursive: true, force: true });
}

main().catch((e) => {
  process.stderr.write(`http soak failed: ${e instanceof Error ? e.stack : String(e)}\n`);
  process.exit(1);
});
