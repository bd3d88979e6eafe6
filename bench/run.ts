/**
 * `npm run bench -- [--root DIR] [--lang ts|go|py|php] [--queries N] [--reps N] [--json out.json]
 *                   [--server ID] [--compare ID] [--gen-files N] [--no-gen] [--no-mcp] [--seed N]
 *                   [--node-flags "FLAGS"] [--no-memory] [--no-cold-start] [--cold-runs N] [--no-pass-cpu]`
 *  (node flags of the spawned `lspgate mcp`, shown in the header; the cold start — with and without
 *  the syntax tier, beside the raw server's time to ready — runs on every workspace: bench/cold-start.ts;
 *  so does one changed file on its syntax catalog: bench/incremental.ts)
 *
 * First, the syntax pass's CPU against the raw parse of the same files, per corpus (generated 3,500
 * files, node_modules TS/JS, GOROOT/src, the Python stdlib: bench/pass-cpu.ts; `--no-pass-cpu`).
 *
 * Last, the memory goals (bench/memory-goals.ts: the daemon after four roots used once and left,
 * monorepo and four-client ratios, each met/missed; `--no-memory` leaves them out).
 *
 * Without --root: the bundled fixture of the language and, for ts, a generated project of
 * --gen-files files (default 400, bench/gen-repo.ts). Every workspace is copied to a temp dir first
 * (node_modules symlinked) because the re-catalog figure edits a file.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { descriptorOperations } from '../src/operations/defs/descriptors.js';
import { navigationOperations } from '../src/operations/defs/navigation.js';
import { operations as registered } from '../src/operations/registry.js';
import type { Operation } from '../src/operations/types.js';
import { cliStart, cliStartTable } from './cli-start.js';
import { coldStart, coldStartTable } from './cold-start.js';
import { generateRepo } from './gen-repo.js';
import { incremental } from './incremental.js';
import { runLspgateSuite } from './lspgate-suite.js';
import { runMcpSuite } from './mcp-suite.js';
import { renderMemoryGoals, runMemoryGoals } from './memory-goals.js';
import { passCpu, passCpuTable } from './pass-cpu.js';
import { buildQuerySet, listSourceFiles, type Query } from './query-set.js';
import { loadShippedEntry, packageRoot } from './raw-client.js';
import { RawRunner, runRawSuite } from './raw-suite.js';
import { evaluateTargets, renderReport, type TargetResult, toJson, type WorkspaceReport } from './report.js';
import { toolsListReport } from './tools-list.js';
import { runWarmLatency } from './warm-latency-suite.js';
import { type Kind, KINDS, WORKLOADS } from './workloads.js';

const LANG_SERVER: Record<string, { server: string; fixture: string }> = {
  ts: { server: 'typescript-language-server', fixture: 'fixtures/ts-app' },
  go: { server: 'gopls', fixture: 'fixtures/go-app' },
  py: { server: 'pyright', fixture: 'fixtures/py-app' },
  php: { server: 'intelephense', fixture: 'fixtures/php-app' },
};

interface Args {
  root?: string;
  lang: string;
  queries: number;
  reps: number;
  json: string;
  server?: string;
  compare: string[];
  genFiles: number;
  gen: boolean;
  mcp: boolean;
  seed: number;
  nodeFlags: string[];
  warmLatency: boolean;
  memory: boolean;
  coldStart: boolean;
  coldRuns: number;
  passCpu: boolean;
}

function parseArgs(argv: string[]): Args {
  const a: Args = {
    lang: 'ts',
    queries: 30,
    reps: 3,
    json: path.join(packageRoot, 'bench/results/latest.json'),
    compare: [],
    genFiles: 400,
    gen: true,
    mcp: true,
    seed: 7,
    nodeFlags: [],
    warmLatency: true,
    memory: true,
    coldStart: true,
    coldRuns: 1,
    passCpu: true,
  };
  for (let i = 0; i < argv.length; i++) {
    const v = () => {
      const x = argv[++i];
      if (x === undefined) throw new Error(`${argv[i - 1]} needs a value`);
      return x;
    };
    switch (argv[i]) {
      case '--root':
        a.root = path.resolve(v());
        break;
      case '--lang':
        a.lang = v();
        break;
      case '--queries':
        a.queries = Number(v());
        break;
      case '--reps':
        a.reps = Number(v());
        break;
      case '--json':
        a.json = path.resolve(v());
        break;
      case '--server':
        a.server = v();
        break;
      case '--compare':
        a.compare.push(v());
        break;
      case '--gen-files':
        a.genFiles = Number(v());
        break;
      case '--no-gen':
        a.gen = false;
        break;
      case '--no-mcp':
        a.mcp = false;
        break;
      case '--no-warm-latency':
        a.warmLatency = false;
        break;
      case '--no-memory':
        a.memory = false;
        break;
      case '--no-cold-start':
        a.coldStart = false;
        break;
      case '--no-pass-cpu':
        a.passCpu = false;
        break;
      case '--cold-runs':
        a.coldRuns = Number(v());
        break;
      case '--seed':
        a.seed = Number(v());
        break;
      case '--node-flags':
        a.nodeFlags = v().split(/\s+/).filter(Boolean);
        break;
      case '--help':
        return printHelpAndExit();
      default:
        throw new Error(`unknown argument ${argv[i]}`);
    }
  }
  if (!LANG_SERVER[a.lang]) throw new Error(`--lang must be one of ${Object.keys(LANG_SERVER).join(', ')}`);
  return a;
}

/** The usage is this file's header comment. */
function printHelpAndExit(): never {
  process.stdout.write(
    fs
      .readFileSync(new URL(import.meta.url))
      .toString()
      .split('*/')[0]!
      .replace(/^\/\*\*?/, '') + '\n',
  );
  process.exit(0);
}

/** A private copy: sources copied, node_modules linked, VCS and build output left out. */
function copyWorkspace(src: string): string {
  const dst = fs.mkdtempSync(path.join(os.tmpdir(), `lspgate-bench-${path.basename(src)}-`));
  for (const d of fs.readdirSync(src, { withFileTypes: true })) {
    if (d.name === '.git' || d.name === 'dist' || d.name === '.lspgate') continue;
    const from = path.join(src, d.name);
    if (d.name === 'node_modules') fs.symlinkSync(from, path.join(dst, d.name));
    else fs.cpSync(from, path.join(dst, d.name), { recursive: true, dereference: false });
  }
  return dst;
}

/** Makes lspgate pick `serverId` for this workspace (a workspace servers.json override). */
function preferServer(root: string, serverId: string): void {
  fs.mkdirSync(path.join(root, '.lspgate'), { recursive: true });
  fs.writeFileSync(path.join(root, '.lspgate/servers.json'), JSON.stringify({ servers: [{ id: serverId, enabled: true, priority: 100 }] }, null, 2));
}

async function benchWorkspace(name: string, source: string, a: Args, log: (s: string) => void): Promise<WorkspaceReport> {
  const root = fs.realpathSync(copyWorkspace(source));
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'lspgate-bench-cache-'));
  const serverId = a.server ?? LANG_SERVER[a.lang]!.server;
  if (a.server) preferServer(root, a.server);
  try {
    const entry = loadShippedEntry(serverId);
    const files = listSourceFiles(root, entry);
    log(`${name}: ${files.length} files, choosing ${a.queries} queries (seed ${a.seed})`);
    const queries = await buildQuerySet({ root, entry, files, count: a.queries, seed: a.seed, cacheDir: path.join(tmp, 'qs') });
    if (!queries.length) throw new Error(`${name}: documentSymbol found no function, method or class`);
    const common = { root, queries, reps: a.reps };
    const rawAlternatives = [];
    for (const id of a.compare) {
      log(`${name}: raw ${id}`);
      rawAlternatives.push(await runRawSuite({ ...common, entry: loadShippedEntry(id), files, cacheDir: path.join(tmp, `raw-${id}`), concurrency: 8 }));
    }
    // In-process: the registry plus the navigation and descriptor groups even before they are
    // registered; over MCP: what the registry serves.
    const ops = new Map<string, Operation>();
    for (const op of [...registered, ...navigationOperations, ...descriptorOperations]) if (!ops.has(op.name)) ops.set(op.name, op);
    const available = new Set(ops.keys());
    const availableMcp = new Set(registered.map((o) => o.name));
    log(`${name}: raw ${serverId} (cold)`);
    const rawRunner = await RawRunner.start({ ...common, entry, files, cacheDir: path.join(tmp, 'raw'), concurrency: 8 });
    if (!available.has('get_file_outline')) {
      log(`${name}: get_file_outline is not in this build: no lspgate columns`);
      await rawRunner.warmAll();
      return { name, root: source, files: files.length, queries: queries.length, reps: a.reps, raw: await rawRunner.finish(), rawAlternatives };
    }
    log(`${name}: lspgate in-process, warm calls paired with the raw server's`);
    let lspgate;
    try {
      const pairWith = (kind: Kind, q: Query) => rawRunner.warmOne(kind, q);
      lspgate = await runLspgateSuite({ ...common, cacheDir: path.join(tmp, 'lspgate'), available, operations: [...ops.values()], pairWith });
    } catch (e) {
      await rawRunner.abort();
      throw e;
    }
    // Kinds lspgate does not serve still get their raw warm samples.
    for (const kind of KINDS)
      if (!available.has(WORKLOADS[kind].op))
        for (let r = 0; r < a.reps; r++) for (const q of queries.filter(WORKLOADS[kind].applies)) await rawRunner.warmOne(kind, q);
    log(`${name}: raw whole-workspace documentSymbol`);
    const raw = await rawRunner.finish();
    let mcp;
    if (a.mcp && availableMcp.has('get_file_outline')) {
      log(`${name}: lspgate over MCP stdio`);
      mcp = await runMcpSuite({ ...common, cacheDir: path.join(tmp, 'mcp'), available: availableMcp, nodeFlags: a.nodeFlags });
    }
    let warmLatency;
    if (a.mcp && a.warmLatency && availableMcp.has('search_symbols')) {
      log(`${name}: warm latency (catalog operations over MCP vs an empty call; definition vs raw)`);
      warmLatency = await runWarmLatency({ ...common, entry, cacheDir: path.join(tmp, 'warm'), operations: [...ops.values()], nodeFlags: a.nodeFlags }, log);
    }
    return { name, root: source, files: files.length, queries: queries.length, reps: a.reps, raw, rawAlternatives, lspgate, mcp, warmLatency };
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const a = parseArgs(process.argv.slice(2));
  const log = (s: string) => process.stderr.write(`[bench] ${s}\n`);
  const targets: { name: string; root: string; cleanup?: () => void }[] = [];
  if (a.root) targets.push({ name: path.basename(a.root), root: a.root });
  else {
    targets.push({ name: LANG_SERVER[a.lang]!.fixture, root: path.join(packageRoot, LANG_SERVER[a.lang]!.fixture) });
    if (a.lang === 'ts' && a.gen) {
      const gen = generateRepo({ files: a.genFiles, seed: 42 });
      targets.push({
        name: `generated-${a.genFiles} (bench/gen-repo.ts, seed 42)`,
        root: gen.root,
        cleanup: () => fs.rmSync(gen.root, { recursive: true, force: true }),
      });
    }
  }
  // What an agent and a person meet first: no workspace, no language server.
  log('tools/list per profile, CLI start');
  const tools = await toolsListReport();
  const start = cliStart();
  const surface = `## Agent surface\n\n${tools.text}\nCLI start (median of 15 runs interleaved with \`node -e 0\`):\n\n${cliStartTable(start)}\n`;
  const pass = a.passCpu ? await passCpu(['gen', 'nm', 'go', 'py'], 3500, 3000, log) : [];
  const reports: WorkspaceReport[] = [];
  const allTargets: TargetResult[] = [];
  const cold: string[] = [];
  const changed: string[] = [];
  try {
    for (const t of targets) {
      const r = await benchWorkspace(t.name, t.root, a, log);
      reports.push(r);
      allTargets.push(...evaluateTargets(r));
      if (a.coldStart) cold.push(coldStartTable(t.name, await coldStart(fs.realpathSync(t.root), a.lang, 'Service', a.coldRuns, log)));
      log(`${t.name}: one changed file (syntax re-catalog, search structure update)`);
      changed.push(await incremental(fs.realpathSync(t.root), 40, 'Service'));
    }
  } finally {
    for (const t of targets) t.cleanup?.();
  }
  const meta = { date: new Date().toISOString(), node: process.version, cpus: os.cpus().length, loadavg: os.loadavg(), args: a };
  const flags = a.nodeFlags.length ? `; lspgate mcp spawned with node ${a.nodeFlags.join(' ')}` : '';
  const header = `lspgate bench ${meta.date} — node ${meta.node}, ${meta.cpus} CPUs, load average ${meta.loadavg.map((x) => x.toFixed(1)).join(' ')}${flags}`;
  process.stdout.write(renderReport(reports, allTargets, `${header}\n\n${surface}`));
  if (pass.length) process.stdout.write(`\n## The syntax pass against the raw parse (same files, same runtime, same run)\n\n${passCpuTable(pass)}\n`);
  if (cold.length) process.stdout.write(`\n## Cold start: the syntax tier, the servers only, the raw server\n\n${cold.join('\n\n')}\n`);
  process.stdout.write(`\n## One changed file\n\n${changed.join('\n')}\n`);
  const memory = a.memory ? runMemoryGoals(log) : [];
  if (memory.length) process.stdout.write(renderMemoryGoals(memory));
  fs.mkdirSync(path.dirname(a.json), { recursive: true });
  const json = { ...(toJson(reports, allTargets, meta) as object), tools_list: tools.rows, cli_start: start, memory_goals: memory, pass_cpu: pass };
  fs.writeFileSync(a.json, JSON.stringify(json, null, 2));
  log(`JSON written to ${a.json}`);
}

main().then(
  () => process.exit(0),
  (e: unknown) => {
    process.stderr.write(`[bench] failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
    process.exit(1);
  },
);
