/**
 * The syntax pass's CPU against the raw parse of the same files, in one run, per corpus: the
 * generated TypeScript repository (3,500 files), a TS/JS package set from node_modules, a GOROOT/src
 * subset and the Python standard library. Each corpus is measured in a fresh child process:
 *
 *   1. the pass: lspgate in-process (servers on demand, so none starts), `index_folder` of the corpus
 *      until the syntax tier is ready — the walk, the gate, the workers, the catalog, everything;
 *   2. the syntax workers alone: the syntax cataloger's catalogMany of the files the pass cataloged;
 *   3. the raw parse: the same files, same runtime (@vscode/tree-sitter-wasm) and grammars, one thread,
 *      each text parsed once and its tree freed (texts read and grammars loaded before the clock);
 *   4. the store's writes alone: step 2's entries written into a new workspace database by the
 *      catalog's store (CatalogStore, with search_symbols' keys) in one transaction — the least the
 *      pass's writes cost (the pass writes in slices of a few files, one transaction each). The pass
 *      cannot cost less than the raw parse plus this.
 *
 * CPU is `process.cpuUsage()`: getrusage(RUSAGE_SELF), which counts every thread of the process,
 * worker threads included (checked against /proc/self/stat's utime+stime).
 *
 *   node dist/bench/pass-cpu.js [--corpora gen,nm,go,py] [--gen-files 3500] [--max-files 3000] [--pass-only]
 *
 * `--pass-only`: step 1 alone (the workers' and the raw parse's figures are 0), to compare the pass
 * before and after a change in short runs.
 */
import { execFileSync, fork } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { syntaxOf } from '../src/adapters/languages.js';
import type { WorkspaceCatalog } from '../src/catalog/catalog.js';
import { CatalogStore } from '../src/catalog/store.js';
import { LimitsSchema } from '../src/config/schema.js';
import type { FileEntry } from '../src/core/catalog.js';
import { Gateway } from '../src/gateway/gateway.js';
import { ServiceSyntaxCataloger } from '../src/service/cataloging/syntax-cataloger.js';
import { fixedPolicyKeys } from '../src/service/navigation/resolution-policy.js';
import { loadGrammar, loadRuntime } from '../src/syntax/runtime.js';
import { generateRepo } from './gen-repo.js';

export interface PassCpu {
  corpus: string;
  files: number;
  mb: number;
  errors: number;
  symbols: number;
  pass_cpu_s: number;
  pass_wall_s: number;
  /** Of pass_cpu_s, the main thread's (the rest: the syntax workers, libuv's pool, V8's GC and compiler threads). */
  pass_main_cpu_s: number;
  workers_cpu_s: number;
  workers_wall_s: number;
  parse_cpu_s: number;
  /** Step 4: the main thread's CPU writing the workers' entries into a new database, one transaction. */
  store_cpu_s: number;
  load: number;
}

const arg = (name: string) => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
};
const cpuS = (c: NodeJS.CpuUsage) => (c.user + c.system) / 1e6;

/** CPU seconds per thread name (/proc/self/task/TID/comm) of this process's live threads: where a pass's CPU went. */
function threadsS(): Record<string, number> {
  const out: Record<string, number> = {};
  for (const tid of fs.readdirSync('/proc/self/task')) {
    try {
      const name = fs.readFileSync(`/proc/self/task/${tid}/comm`, 'utf8').trim();
      const s = fs.readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
      const f = s.slice(s.lastIndexOf(')') + 2).split(' ');
      out[`${name}:${tid}`] = (Number(f[11]) + Number(f[12])) / 100;
    } catch {
      // ended meanwhile
    }
  }
  return out;
}

/** CPU seconds of this process's main thread alone (/proc/self/task/PID/stat utime + stime, in clock ticks of 10 ms). */
function mainThreadS(): number {
  try {
    const s = fs.readFileSync(`/proc/self/task/${process.pid}/stat`, 'utf8');
    const f = s.slice(s.lastIndexOf(')') + 2).split(' ');
    return (Number(f[11]) + Number(f[12])) / 100;
  } catch {
    return NaN;
  }
}

/** A corpus folder: `files` source files of `exts` under `from`, every k-th in path order, copied with their paths (node_modules segments renamed so the walk keeps them). */
function sample(from: string, exts: RegExp, max: number, skip: RegExp = /^$/): string {
  const all: string[] = [];
  const walk = (dir: string) => {
    let ds: fs.Dirent[];
    try {
      ds = fs.readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const d of ds.sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const p = path.join(dir, d.name);
      if (skip.test(d.name)) continue;
      if (d.isDirectory()) walk(p);
      else if (d.isFile() && exts.test(d.name) && fs.statSync(p).size < 1_000_000) all.push(p);
    }
  };
  walk(from);
  const step = Math.max(1, all.length / max);
  const out = fs.mkdtempSync(path.join(os.tmpdir(), 'lspgate-pass-cpu-'));
  for (let i = 0; i < all.length && i / step < max; i += step) {
    const src = all[Math.floor(i)]!;
    const rel = path
      .relative(from, src)
      .split(path.sep)
      .map((s) => (s === 'node_modules' ? 'nm' : s));
    const dst = path.join(out, ...rel);
    fs.mkdirSync(path.dirname(dst), { recursive: true });
    fs.copyFileSync(src, dst);
  }
  return out;
}

/** The go and python3 on PATH say where their sources are (GOROOT's src is often a symlink: resolved). */
function asked(cmd: string, args: string[]): string | undefined {
  try {
    const out = execFileSync(cmd, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
    return out && fs.existsSync(out) ? fs.realpathSync(out) : undefined;
  } catch {
    return undefined;
  }
}
/** GOROOT/src of the go on PATH, else of the newest /usr/lib/go-1.N (lspgate puts that on gopls's PATH, not on everyone's). */
export const goSrc = () =>
  asked('sh', ['-c', 'echo "$(go env GOROOT)/src"']) ?? asked('sh', ['-c', 'ls -d /usr/lib/go-1.*/src 2>/dev/null | sort -t. -k2 -n | tail -1']);
export const pythonStdlib = () => asked('python3', ['-c', "import sysconfig; print(sysconfig.get_paths()['stdlib'])"]);

/** The corpora this machine has: name and a folder (made here, removed by the caller). */
export function corpora(names: string[], genFiles: number, maxFiles: number): { name: string; root: string }[] {
  const out: { name: string; root: string }[] = [];
  const pkgRoot = path.resolve(fileURLToPath(import.meta.url), '../../..');
  for (const n of names) {
    if (n === 'gen') out.push({ name: `generated ${genFiles} files (gen-repo.ts, seed 42)`, root: generateRepo({ files: genFiles, seed: 42 }).root });
    if (n === 'nm')
      out.push({
        name: `node_modules TS/JS (every k-th of ${maxFiles})`,
        root: sample(path.join(pkgRoot, 'node_modules'), /\.(ts|tsx|js|mjs|cjs|mts|cts)$/, maxFiles, /^(\.bin|\.cache)$/),
      });
    const go = n === 'go' ? goSrc() : undefined;
    if (go) out.push({ name: `GOROOT/src (${go}, every k-th of ${maxFiles})`, root: sample(go, /\.go$/, maxFiles) });
    const py = n === 'py' ? pythonStdlib() : undefined;
    if (py)
      out.push({
        name: `Python stdlib (${py}, every k-th of ${maxFiles})`,
        root: sample(py, /\.py$/, maxFiles, /^(site-packages|dist-packages|__pycache__)$/),
      });
  }
  return out;
}

/** The child: one fresh process per corpus. */
async function child(root: string, corpus: string): Promise<PassCpu> {
  const cacheDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lspgate-pass-cpu-cache-'));
  const load = os.loadavg()[0]!;
  try {
    // 1. the pass, from before the gateway exists to the syntax tier's end
    const c0 = process.cpuUsage();
    const m0 = mainThreadS();
    const t0 = performance.now();
    const g = await Gateway.create({ root, cacheDir });
    let files: [string, { tier?: string; symbols: unknown[] }][];
    let symbols = 0;
    let counting = { cpu: 0, main: 0, wall: 0 };
    try {
      const cat = (await g.workspaceFor(root)).catalog as WorkspaceCatalog;
      await g.run('index_folder', { path: root, output_format: 'json' });
      await cat.tier.whenReady();
      files = [...cat.files()].filter(([, e]) => e.tier === 'syntax');
      // counted while the database is open (a file's symbols are read from it), off the pass's clock
      const cc = process.cpuUsage();
      const mc = mainThreadS();
      const tc = performance.now();
      symbols = files.reduce((n, [, e]) => n + e.symbols.length, 0);
      counting = { cpu: cpuS(process.cpuUsage(cc)), main: mainThreadS() - mc, wall: (performance.now() - tc) / 1000 };
    } finally {
      await g.close();
    }
    const pass = cpuS(process.cpuUsage(c0)) - counting.cpu;
    if (process.env.PASS_CPU_THREADS) process.stderr.write(`[pass-cpu] threads after the pass: ${JSON.stringify(threadsS())}\n`);
    const passMain = mainThreadS() - m0 - counting.main;
    const passWall = (performance.now() - t0) / 1000 - counting.wall;
    const rels = files.map(([rel]) => rel).sort();
    const texts = rels.map((rel) => ({ rel, bytes: fs.readFileSync(path.join(root, rel)) }));
    const mb = texts.reduce((n, t) => n + t.bytes.length, 0) / 1e6;
    const passOnly = {
      corpus,
      files: rels.length,
      mb: +mb.toFixed(1),
      errors: 0,
      symbols,
      pass_cpu_s: +pass.toFixed(2),
      pass_wall_s: +passWall.toFixed(2),
      pass_main_cpu_s: +passMain.toFixed(2),
      workers_cpu_s: 0,
      workers_wall_s: 0,
      parse_cpu_s: 0,
      store_cpu_s: 0,
      load: +load.toFixed(1),
    };
    if (process.env.PASS_CPU_PASS_ONLY) return passOnly;

    // 2. the syntax workers alone, on the same files
    const syntax = new ServiceSyntaxCataloger({ servers: [], limits: LimitsSchema.parse({}) }, root);
    let errors = 0;
    const entries: [string, FileEntry][] = [];
    const c1 = process.cpuUsage();
    const t1 = performance.now();
    await syntax.catalogMany(
      rels.map((rel) => ({ abs: path.join(root, rel), rel })),
      (rel, entry) => void (entry ? entries.push([rel, entry]) : errors++),
    );
    const workers = cpuS(process.cpuUsage(c1));
    const workersWall = (performance.now() - t1) / 1000;

    // 3. the raw parse: one thread, each text parsed once
    const { Parser } = await loadRuntime();
    const jobs = [];
    for (const t of texts) {
      const grammar = syntaxOf(t.rel, t.bytes)!.grammar;
      jobs.push({ language: await loadGrammar(grammar), text: t.bytes.toString('utf8') });
    }
    const parser = new Parser();
    const c2 = process.cpuUsage();
    let current;
    for (const j of jobs) {
      if (j.language !== current) parser.setLanguage((current = j.language));
      parser.parse(j.text)?.delete();
    }
    const parse = cpuS(process.cpuUsage(c2));
    parser.delete();

    // 4. the store's writes alone, in one transaction, into a database of their own
    const storeDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lspgate-pass-cpu-store-'));
    let store = 0;
    try {
      const s = new CatalogStore(storeDir, 'w', root, (symbols) => fixedPolicyKeys(symbols));
      s.load(() => undefined);
      const m3 = mainThreadS();
      s.batch(() => {
        for (const [rel, entry] of entries) s.writeFile(rel, entry);
      });
      store = mainThreadS() - m3;
      s.close();
    } finally {
      fs.rmSync(storeDir, { recursive: true, force: true });
    }
    return {
      ...passOnly,
      errors,
      workers_cpu_s: +workers.toFixed(2),
      workers_wall_s: +workersWall.toFixed(2),
      parse_cpu_s: +parse.toFixed(2),
      store_cpu_s: +store.toFixed(2),
    };
  } finally {
    fs.rmSync(cacheDir, { recursive: true, force: true });
  }
}

function runChild(root: string, corpus: string): Promise<PassCpu> {
  return new Promise((resolve, reject) => {
    const env = {
      ...process.env,
      LSPGATE_SERVER_START: 'on-demand',
      LSPGATE_DAEMON: 'off',
      ...(process.argv.includes('--pass-only') ? { PASS_CPU_PASS_ONLY: '1' } : {}),
    };
    const c = fork(fileURLToPath(import.meta.url), ['--child', root, corpus], { env, stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
    c.on('message', (m) => resolve(m as PassCpu));
    c.on('exit', (code) => (code === 0 ? undefined : reject(new Error(`pass-cpu child exited ${code}`))));
  });
}

/** Measures each corpus (fresh child each) and removes the corpus folders. */
export async function passCpu(names: string[], genFiles: number, maxFiles: number, log: (s: string) => void): Promise<PassCpu[]> {
  const out: PassCpu[] = [];
  for (const c of corpora(names, genFiles, maxFiles)) {
    try {
      log(`pass CPU: ${c.name}`);
      const r = await runChild(fs.realpathSync(c.root), c.name);
      log(
        `pass CPU: ${c.name}: pass ${r.pass_cpu_s} s (main thread ${r.pass_main_cpu_s} s, load ${r.load}), workers ${r.workers_cpu_s} s, raw parse ${r.parse_cpu_s} s (${(r.pass_cpu_s / r.parse_cpu_s).toFixed(2)}x), store writes alone ${r.store_cpu_s} s`,
      );
      out.push(r);
    } finally {
      fs.rmSync(c.root, { recursive: true, force: true });
    }
  }
  return out;
}

export function passCpuTable(rows: PassCpu[]): string {
  const cores = os.availableParallelism();
  return [
    `| corpus | files | MB | symbols | errors | raw parse CPU (1 thread) | syntax pass CPU (index_folder, workers included) | of which main thread | pass ÷ parse | pass wall (bar: CPU ÷ ${cores} cores + 1 s) | syntax workers alone: CPU | ÷ parse | store writes alone (one transaction): CPU | ÷ parse | load |`,
    `|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|`,
    ...rows.map(
      (r) =>
        `| ${r.corpus} | ${r.files} | ${r.mb} | ${r.symbols} | ${r.errors} | ${r.parse_cpu_s.toFixed(2)} s | ${r.pass_cpu_s.toFixed(2)} s | ${r.pass_main_cpu_s.toFixed(2)} s | ${(r.pass_cpu_s / r.parse_cpu_s).toFixed(2)}x | ${r.pass_wall_s.toFixed(1)} s (${(r.pass_cpu_s / cores + 1).toFixed(1)} s) | ${r.workers_cpu_s.toFixed(2)} s | ${(r.workers_cpu_s / r.parse_cpu_s).toFixed(2)}x | ${r.store_cpu_s.toFixed(2)} s | ${(r.store_cpu_s / r.parse_cpu_s).toFixed(2)}x | ${r.load} |`,
    ),
  ].join('\n');
}

async function main(): Promise<void> {
  if (process.argv[2] === '--child') {
    const r = await child(process.argv[3]!, process.argv[4]!);
    if (process.send) process.send(r);
    else process.stdout.write(`${JSON.stringify(r)}\n`);
    return;
  }
  const names = (arg('--corpora') ?? 'gen,nm,go,py').split(',');
  const rows = await passCpu(names, Number(arg('--gen-files') ?? 3500), Number(arg('--max-files') ?? 3000), (s) => process.stderr.write(`[pass-cpu] ${s}\n`));
  process.stdout.write(`${passCpuTable(rows)}\n`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  main().then(
    () => process.exit(0),
    (e: unknown) => {
      process.stderr.write(`[pass-cpu] failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
      process.exit(1);
    },
  );
}
