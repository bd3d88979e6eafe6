/**
 * Where a warm in-process call spends its time: one gateway on a generated (or given) TS repo,
 * each query asked cold once, then `--iters` warm rounds (workspace-wide cached answers
 * invalidated before each call, as bench's warm column does) and `--iters` repeated rounds.
 * Prints per-operation p50s next to the same LSP request sent straight through the session.
 * Run under `node --cpu-prof` for a profile; `node dist/bench/profile-summary.js FILE` sums it.
 *
 *   node [--cpu-prof --cpu-prof-dir DIR] dist/bench/profile-warm.js [--files N] [--root DIR]
 *        [--queries N] [--iters N] [--ops find_definition,find_references] [--memory]
 *        [--pair] [--profile FILE | --profile-warm FILE | --profile-repeat FILE]
 */
import fs from 'node:fs';
import { Session as InspectorSession } from 'node:inspector/promises';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

import { DefinitionRequest, ReferencesRequest } from 'vscode-languageserver-protocol';

import { liveResponseCaches } from '../src/cache/response-cache.js';
import { Gateway } from '../src/gateway/gateway.js';
import { descriptorOperations } from '../src/operations/defs/descriptors.js';
import { navigationOperations } from '../src/operations/defs/navigation.js';
import { operations as registered } from '../src/operations/registry.js';
import { publicInputSchema } from '../src/operations/runner.js';
import type { Operation } from '../src/operations/types.js';
import { createLogger } from '../src/util/logger.js';
import { generateRepo } from './gen-repo.js';
import { buildQuerySet, listSourceFiles, type Query } from './query-set.js';
import { loadShippedEntry, RawLspClient } from './raw-client.js';
import { summarize } from './stats.js';
import { type Kind, KINDS, WORKLOADS } from './workloads.js';

const KIND_OF: Record<string, Kind> = {
  find_definition: 'definition',
  find_references: 'references',
  find_callers: 'callers',
  get_file_outline: 'documentSymbol',
  query_relationships: 'callsMe3',
  analyze_impact: 'impact3',
};

function arg(name: string, dflt: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1]! : dflt;
}

const mb = (n: number) => `${(n / 1048576).toFixed(1)} MB`;
function memory(phase: string): void {
  if (!process.argv.includes('--memory')) return;
  global.gc?.();
  const m = process.memoryUsage();
  const hwm = /VmHWM:\s+(\d+) kB/.exec(fs.readFileSync('/proc/self/status', 'utf8'))?.[1];
  process.stderr.write(
    `[mem] ${phase}: peak rss ${hwm ? mb(Number(hwm) * 1024) : '?'} rss ${mb(m.rss)} heapUsed ${mb(m.heapUsed)} heapTotal ${mb(m.heapTotal)} external ${mb(m.external)} arrayBuffers ${mb(m.arrayBuffers)}\n`,
  );
}

/** --spans: wall time spent in a few inner functions, summed per warm call (monkey-patched here only). */
const spans = new Map<string, number>();
function spanPatch(proto: object, method: string, label: string): void {
  const p = proto as Record<string, (...a: unknown[]) => unknown>;
  const orig = p[method]!;
  p[method] = function (this: unknown, ...args: unknown[]) {
    const t = performance.now();
    const out = orig.apply(this, args);
    const done = () => spans.set(label, (spans.get(label) ?? 0) + performance.now() - t);
    if (out instanceof Promise) out.then(done, done);
    else done();
    return out;
  };
}
async function installSpans(): Promise<void> {
  if (!process.argv.includes('--spans')) return;
  const { ResponseCache } = await import('../src/cache/response-cache.js');
  const { CachedSession } = await import('../src/cache/cached-session.js');
  const { WorkspaceCatalog } = await import('../src/catalog/catalog.js');
  const { OperationRunner } = await import('../src/operations/runner.js');
  spanPatch(ResponseCache.prototype, 'get', 'ResponseCache.get (sync)');
  spanPatch(CachedSession.prototype, 'syncDocument', 'CachedSession.syncDocument');
  spanPatch(CachedSession.prototype, 'request', 'CachedSession.request (incl. server)');
  spanPatch(WorkspaceCatalog.prototype, 'fileSymbols', 'catalog.fileSymbols');
  spanPatch(WorkspaceCatalog.prototype, 'lookup', 'catalog.lookup');
  spanPatch(OperationRunner.prototype, 'run', 'runner.run (total)');
}

async function main(): Promise<void> {
  await installSpans();
  memory('modules loaded');
  const files = Number(arg('files', '400'));
  const given = process.argv.includes('--root') ? path.resolve(arg('root', '.')) : undefined;
  const root = fs.realpathSync(given ?? generateRepo({ files, seed: 42 }).root);
  const cacheDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lspgate-prof-'));
  const iters = Number(arg('iters', '20'));
  const ops = arg('ops', 'find_definition,find_references,find_callers').split(',');
  const entry = loadShippedEntry('typescript-language-server');
  const queries = await buildQuerySet({
    root,
    entry,
    files: listSourceFiles(root, entry),
    count: Number(arg('queries', '10')),
    seed: 7,
    cacheDir: path.join(cacheDir, 'qs'),
  });
  const all = new Map<string, Operation>();
  for (const op of [...registered, ...navigationOperations, ...descriptorOperations]) if (!all.has(op.name)) all.set(op.name, op);
  const gateway = await Gateway.create({ root, cacheDir, logger: createLogger('prof', 'error'), operations: [...all.values()] });
  try {
    const ask = (op: string, q: Query) => gateway.run(op, WORKLOADS[KIND_OF[op]!].input(q));
    await ask('get_file_outline', queries[0]!);
    memory('server ready, one outline');
    if (process.argv.includes('--catalog')) {
      const ws = await gateway.workspaceFor(undefined);
      await ws.catalog.build();
      memory('catalog built');
      if (process.argv.includes('--memory')) {
        const snap = path.join(cacheDir, 'workspaces', ws.id, 'index.db');
        const rc = (gateway.context.broker as { cache?: { stats(): unknown } }).cache?.stats();
        process.stderr.write(`[mem] catalog database ${fs.existsSync(snap) ? mb(fs.statSync(snap).size) : 'absent'}; response cache ${JSON.stringify(rc)}\n`);
        if (process.argv.includes('--heap')) {
          const v8 = await import('node:v8');
          process.stderr.write(`[mem] heap snapshot ${v8.writeHeapSnapshot(path.join(os.tmpdir(), 'lspgate-catalog.heapsnapshot'))}\n`);
        }
      }
    }
    for (const op of ops) for (const q of queries) await ask(op, q).catch(() => undefined);
    // --all-cold: the bench's cold pass (every kind, descriptor operations included) first.
    if (process.argv.includes('--all-cold')) {
      for (const kind of KINDS)
        for (const q of queries.filter(WORKLOADS[kind].applies)) await gateway.run(WORKLOADS[kind].op, WORKLOADS[kind].input(q)).catch(() => undefined);
    }
    memory('cold pass done');
    const session = gateway.context.broker.existing()[0]!;
    // --profile FILE: a CPU profile of the warm and repeated passes only (no start-up, no cold
    // pass); --profile-repeat FILE: of the repeated-call loops only.
    // --profile-warm FILE: of the warm passes only.
    const profileTo = process.argv.includes('--profile')
      ? arg('profile', '')
      : process.argv.includes('--profile-repeat')
        ? arg('profile-repeat', '')
        : process.argv.includes('--profile-warm')
          ? arg('profile-warm', '')
          : undefined;
    const inspector = profileTo ? new InspectorSession() : undefined;
    const startProfile = async () => {
      if (!inspector) return;
      inspector.connect();
      await inspector.post('Profiler.enable');
      await inspector.post('Profiler.setSamplingInterval', { interval: 50 });
      await inspector.post('Profiler.start');
    };
    if (process.argv.includes('--profile') || process.argv.includes('--profile-warm')) await startProfile();
    // --pair: a raw server on the same root answers the same query right before each warm call
    // (what the bench does); its time is printed as "raw".
    const raw = process.argv.includes('--pair') ? await RawLspClient.start(entry, root, path.join(cacheDir, 'raw')) : undefined;
    if (raw) await raw.waitReady(() => WORKLOADS.documentSymbol.raw(raw, root, queries[0]!));
    const rawMs: number[] = [];
    const sentCount = new Map<string, number>();
    session.onTrace((e) => {
      if (e.direction !== 'send') return;
      const k = `${e.kind} ${e.method ?? ''}`;
      sentCount.set(k, (sentCount.get(k) ?? 0) + 1);
    });
    for (const op of ops) {
      sentCount.clear();
      const warm: number[] = [];
      let warmCpu = 0;
      let directCpu = 0;
      const warmSpans = new Map<string, number>();
      const hit: number[] = [];
      const direct: number[] = [];
      for (let i = 0; i < iters; i++) {
        for (const q of queries.filter(WORKLOADS[KIND_OF[op]!].applies)) {
          for (const c of liveResponseCaches()) c.invalidateWorkspaceAnswers();
          if (raw) {
            const tr = performance.now();
            await WORKLOADS[KIND_OF[op]!].raw(raw, root, q);
            rawMs.push(performance.now() - tr);
          }
          const before = new Map(spans);
          const c0 = process.cpuUsage();
          let t = performance.now();
          await ask(op, q).catch(() => undefined);
          warm.push(performance.now() - t);
          const c1 = process.cpuUsage(c0);
          warmCpu += (c1.user + c1.system) / 1000;
          for (const [k, v] of spans) warmSpans.set(k, (warmSpans.get(k) ?? 0) + v - (before.get(k) ?? 0));
          t = performance.now();
          await ask(op, q).catch(() => undefined);
          hit.push(performance.now() - t);
          // The same request straight through the (cached) session, its cache invalidated first.
          for (const c of liveResponseCaches()) c.invalidateWorkspaceAnswers();
          const abs = path.join(root, q.file);
          const params = { textDocument: { uri: pathToFileURL(abs).href }, position: { line: q.line, character: q.character } };
          const d0 = process.cpuUsage();
          t = performance.now();
          if (op === 'find_references') await session.request(ReferencesRequest.type, { ...params, context: { includeDeclaration: true } });
          else await session.request(DefinitionRequest.type, params);
          direct.push(performance.now() - t);
          const d1 = process.cpuUsage(d0);
          directCpu += (d1.user + d1.system) / 1000;
        }
      }
      const s = (x: number[]) => {
        const v = summarize(x);
        return `p50 ${v.p50.toFixed(3)} p95 ${v.p95.toFixed(3)}`;
      };
      if (warmSpans.size)
        process.stdout.write(`  per warm call (ms, mean): ${[...warmSpans].map(([k, v]) => `${k} ${(v / warm.length).toFixed(3)}`).join('; ')}\n`);
      process.stdout.write(`  sent to the server during ${op} passes: ${JSON.stringify(Object.fromEntries(sentCount))}\n`);
      if (rawMs.length) process.stdout.write(`  raw (paired, before each warm call): ${s(rawMs.splice(0))}\n`);
      process.stdout.write(
        `${op}: warm ${s(warm)} cpu ${(warmCpu / warm.length).toFixed(3)} ms/call | repeated ${s(hit)} | session request (${op === 'find_references' ? 'references' : 'definition'}) ${s(direct)} cpu ${(directCpu / direct.length).toFixed(3)} ms/call\n`,
      );
    }
    memory('warm passes done');
    if (inspector && profileTo && process.argv.includes('--profile-warm')) await stopProfile(inspector, profileTo);
    await raw?.stop();
    if (process.argv.includes('--profile-repeat')) await startProfile();
    for (const op of ops) await repeatLoop(gateway, op, queries, iters * 10);
    for (const op of ops) await runnerStages(gateway, op, WORKLOADS[KIND_OF[op]!].input(queries[0]!));
    if (inspector && profileTo && !process.argv.includes('--profile-warm')) await stopProfile(inspector, profileTo);
  } finally {
    await gateway.close();
    fs.rmSync(cacheDir, { recursive: true, force: true });
    if (!given) fs.rmSync(root, { recursive: true, force: true });
  }
}

async function stopProfile(inspector: InspectorSession, to: string): Promise<void> {
  const { profile } = await inspector.post('Profiler.stop');
  fs.writeFileSync(to, JSON.stringify(profile));
  inspector.disconnect();
}

/** Repeated calls only (every answer cached in the session): wall time against this process's CPU time. */
async function repeatLoop(gateway: Gateway, name: string, queries: Query[], rounds: number): Promise<void> {
  const inputs = queries.map((q) => WORKLOADS[KIND_OF[name]!].input(q));
  const cpu = process.cpuUsage();
  const t = performance.now();
  let n = 0;
  for (let i = 0; i < rounds; i++)
    for (const input of inputs) {
      await gateway.run(name, input).catch(() => undefined);
      n++;
    }
  const wall = (performance.now() - t) / n;
  // One query asked again and again: the pure hit latency (p50), no miss in the samples.
  const one: number[] = [];
  await gateway.run(name, inputs[0]!).catch(() => undefined);
  for (let i = 0; i < 2000; i++) {
    const t1 = performance.now();
    await gateway.run(name, inputs[0]!).catch(() => undefined);
    one.push(performance.now() - t1);
  }
  const h = summarize(one);
  process.stdout.write(`  one query x2000: p50 ${(h.p50 * 1000).toFixed(1)} µs, p95 ${(h.p95 * 1000).toFixed(1)} µs\n`);
  const used = process.cpuUsage(cpu);
  process.stdout.write(`  operation cache: ${JSON.stringify(gateway.runner.operationCacheStats())}\n`);
  process.stdout.write(
    `${name} repeated x${n}: wall ${wall.toFixed(3)} ms/call, cpu ${((used.user + used.system) / 1000 / n).toFixed(3)} ms/call (user ${(used.user / 1000 / n).toFixed(3)}, sys ${(used.system / 1000 / n).toFixed(3)})\n`,
  );
}

/** The runner's own steps on one real answer, each repeated: what a call costs besides the handler. */
async function runnerStages(gateway: Gateway, name: string, input: Record<string, unknown>): Promise<void> {
  const op = gateway.runner.get(name)!;
  const { result } = await gateway.run(name, input);
  const { _meta, ...body } = result;
  const n = 500;
  const time = (fn: () => unknown) => {
    const t = performance.now();
    for (let i = 0; i < n; i++) fn();
    return ((performance.now() - t) / n).toFixed(4);
  };
  const schema = publicInputSchema(op);
  const parts = {
    input_parse: time(() => schema.safeParse(input)),
    body_stringify: time(() => Buffer.byteLength(JSON.stringify(body))),
    output_parse: time(() => op.output.safeParse(result)),
    json_text: time(() => JSON.stringify(result, null, 2)),
    markdown: time(() => op.markdown?.(result)),
  };
  process.stdout.write(`${name} runner steps (ms per call, ${JSON.stringify(body).length} body chars): ${JSON.stringify(parts)}\n`);
}

main().then(
  () => process.exit(0),
  (e: unknown) => {
    process.stderr.write(`${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
    process.exit(1);
  },
);
