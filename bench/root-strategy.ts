/**
 * What a cold catalog of a (multi-package) repository costs with each root strategy,
 * against one raw server per language at the root. One mode per process, so memory figures do not mix:
 *
 *   node --max-semi-space-size=2 dist/bench/root-strategy.js --root DIR --mode workspace|nearest-marker|raw [--sample N] [--dump FILE] [--settle MS]
 *
 * lspgate modes: index_folder from a fresh cache dir (every entry's rootStrategy set to the mode), then
 * sessions per server, the RSS of lspgate itself + every server process tree (now, and the peak of a
 * 500 ms sampling during the build), and a digest of find_references for N cataloged functions/classes
 * (the same digest in both modes = identical answers). raw mode: one raw server per language of the
 * repository at its root, every file opened, asked documentSymbol and closed (what the catalog asks), the
 * RSS of its tree and lspgate-free baseline for the ratio. lspgate modes also print each server's RSS
 * (rss_mb_by_server) and lspgate's own heap, to compare server for server with the raw run; both print
 * rss_anon_mb, the trees' private memory (treeAnon).
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import v8 from 'node:v8';

import { DocumentSymbolRequest } from 'vscode-languageserver-protocol';

import { Gateway } from '../src/gateway/gateway.js';
import { listSourceFiles } from './query-set.js';
import { loadShippedEntry, processTree, RawLspClient } from './raw-client.js';

const MB = 1024 * 1024;
const arg = (name: string) => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
};

function treeRss(pid: number): number {
  // each process's VmRSS, summed over the tree (groupRss works by process group; the raw server is its own group leader only under a shell)
  let sum = 0;
  for (const p of processTree(pid)) {
    try {
      const m = /^VmRSS:\s+(\d+)\s+kB/m.exec(fs.readFileSync(`/proc/${p}/status`, 'utf8'));
      sum += m ? Number(m[1]) * 1024 : 0;
    } catch {
      // gone
    }
  }
  return sum;
}

/**
 * RssAnon summed over the tree: the memory its processes hold privately. VmRSS also counts file-backed
 * pages shared by every process mapping them — each Node process (lspgate, the watchdog under each
 * server, typescript-language-server, tsserver) counts the ~34 MB of the node binary it shares with the
 * others, so a sum of VmRSS counts that binary once per Node process.
 */
function treeAnon(pid: number): number {
  let sum = 0;
  for (const p of processTree(pid)) {
    try {
      const m = /^RssAnon:\s+(\d+)\s+kB/m.exec(fs.readFileSync(`/proc/${p}/status`, 'utf8'));
      sum += m ? Number(m[1]) * 1024 : 0;
    } catch {
      // gone
    }
  }
  return sum;
}

async function lspgateRun(root: string, mode: string, sample: number): Promise<void> {
  const cacheDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lspgate-rootstrat-'));
  const ids = ['typescript-language-server', 'tsgo', 'pyright', 'intelephense', 'gopls'];
  const serversFile = path.join(cacheDir, 'servers.json');
  fs.writeFileSync(serversFile, JSON.stringify({ servers: ids.map((id) => ({ id, rootStrategy: mode })) }));
  const gateway = await Gateway.create({ root, cacheDir, serversFiles: [serversFile] });
  const total = () => {
    const infos = gateway.context.broker.info();
    return process.memoryUsage().rss + infos.reduce((n, i) => n + (i.rssBytes ?? 0), 0);
  };
  let peak = 0;
  const timer = setInterval(() => (peak = Math.max(peak, total())), 500);
  const t0 = performance.now();
  try {
    const r = (await gateway.run('index_folder', { path: root, output_format: 'json' })).result as unknown as {
      state: string;
      files: number;
      errors: unknown[];
    };
    const buildS = (performance.now() - t0) / 1000;
    peak = Math.max(peak, total());
    const infos = gateway.context.broker.info();
    const perServer: Record<string, number> = {};
    const rssByServer: Record<string, number> = {};
    for (const i of infos) {
      perServer[i.serverId] = (perServer[i.serverId] ?? 0) + 1;
      rssByServer[i.serverId] = (rssByServer[i.serverId] ?? 0) + Math.round((i.rssBytes ?? 0) / MB);
    }
    const now = total();
    const anon = treeAnon(process.pid);
    const digest = await answersDigest(gateway, sample);
    const out = {
      mode,
      state: r.state,
      files: r.files,
      failed: r.errors.length,
      build_s: +buildS.toFixed(1),
      sessions: perServer,
      roots: infos.map((i) => path.relative(root, i.root) || '.'),
      rss_mb_now: Math.round(now / MB),
      rss_mb_peak: Math.round(peak / MB),
      lspgate_rss_mb: Math.round(process.memoryUsage().rss / MB),
      lspgate_heap_mb: Math.round(process.memoryUsage().heapUsed / MB),
      rss_mb_by_server: rssByServer,
      rss_anon_mb: Math.round(anon / MB),
      lspgate_anon_mb: Math.round(Number(/^RssAnon:\s+(\d+)/m.exec(fs.readFileSync('/proc/self/status', 'utf8'))?.[1] ?? 0) / 1024),
      answers: digest,
    };
    process.stdout.write(JSON.stringify(out) + '\n');
  } finally {
    clearInterval(timer);
    await gateway.close();
    fs.rmSync(cacheDir, { recursive: true, force: true });
  }
}

/** find_references of every Nth cataloged function/class: the count and a digest of `file:line` lists. */
async function answersDigest(gateway: Gateway, sample: number): Promise<{ queries: number; references: number; sha: string }> {
  const ws = gateway.workspaces()[0]!;
  const symbols = (await ws.catalog.all()).filter((s) => s.kind === 'function' || s.kind === 'class');
  const picked = symbols.filter((_, i) => i % Math.max(1, Math.floor(symbols.length / sample)) === 0).slice(0, sample);
  const hash = createHash('sha256');
  const dump: { symbol: string; references: string[] }[] = [];
  let references = 0;
  for (const s of picked) {
    // an error is an answer too: its code goes into the digest
    const r = await gateway.run('find_references', { symbol_id: s.symbol_id, output_format: 'json' }).then(
      (x) => x.result as unknown as { references?: { file: string; line: number }[] },
      (e: { code?: string }) => ({ error: e.code ?? 'error', references: undefined }),
    );
    const list = 'error' in r ? [`error ${r.error}`] : (r.references ?? []).map((x) => `${x.file}:${x.line}`).sort();
    references += list.length;
    hash.update(`${s.symbol_id}\n${list.join('\n')}\n`);
    dump.push({ symbol: s.symbol_id, references: list });
  }
  // --dump FILE: the answers themselves, to diff two modes
  const file = arg('--dump');
  if (file) fs.writeFileSync(file, JSON.stringify(dump, null, 1));
  return { queries: picked.length, references, sha: hash.digest('hex').slice(0, 16) };
}

async function rawRun(root: string): Promise<void> {
  const cacheDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lspgate-rootstrat-raw-'));
  const result: Record<string, unknown> = { mode: 'raw' };
  let sum = 0;
  let anonSum = 0;
  const clients: RawLspClient[] = [];
  try {
    for (const id of ['typescript-language-server', 'gopls', 'pyright']) {
      const entry = loadShippedEntry(id);
      const files = listSourceFiles(root, entry);
      if (!files.length) continue;
      const t0 = performance.now();
      const client = await RawLspClient.start(entry, root, cacheDir);
      clients.push(client);
      const symbols = async (rel: string) => {
        const abs = path.join(root, rel);
        await client.open(abs);
        await client.request(DocumentSymbolRequest.type, { textDocument: { uri: `file://${abs}` } });
        await client.close(abs);
      };
      await client.waitReady(() => symbols(files[0]!));
      for (let i = 1; i < files.length; i += 8) await Promise.all(files.slice(i, i + 8).map(symbols));
      // --settle MS: wait before measuring (a server may still be loading after its last answer)
      await new Promise((r) => setTimeout(r, Number(arg('--settle') ?? 0)));
      const rss = treeRss(client.pid!);
      const anon = treeAnon(client.pid!);
      sum += rss;
      anonSum += anon;
      result[id] = {
        files: files.length,
        build_s: +((performance.now() - t0) / 1000).toFixed(1),
        rss_mb: Math.round(rss / MB),
        rss_anon_mb: Math.round(anon / MB),
      };
    }
    result.rss_mb_now = Math.round(sum / MB);
    result.rss_anon_mb = Math.round(anonSum / MB);
    process.stdout.write(JSON.stringify(result) + '\n');
  } finally {
    for (const c of clients) await c.stop();
    fs.rmSync(cacheDir, { recursive: true, force: true });
  }
}

// lspgate as its long-running modes run it: src/cli/full-main.ts sets these V8 flags at start, and the
// `lspgate` command's shebang caps the young generation (run this bench with --max-semi-space-size=2)
v8.setFlagsFromString(process.env.LSPGATE_V8_FLAGS ?? '--optimize-for-size');
const root = fs.realpathSync(path.resolve(arg('--root') ?? '.'));
const mode = arg('--mode') ?? 'workspace';
if (mode === 'raw') await rawRun(root);
else await lspgateRun(root, mode, Number(arg('--sample') ?? 20));
