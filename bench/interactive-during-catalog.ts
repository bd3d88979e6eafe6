/**
 * Interactive find_definition / find_references while lspgate builds a cold catalog
 * of a ~500-file repository, against a raw server at the same moment. The raw server (its own
 * process, project loaded first) and lspgate (fresh cache dir, index_folder started and not awaited)
 * are asked the same questions in turn, interleaved, for as long as the catalog builds; p50/p90 of
 * each, and the ratio of the p50s (target ≤ 2x).
 *
 * With `--trace`, each lspgate operation's time is split (op-trace.ts): before its first request
 * reached the server, the server answering, and the rest; with `--servers FILE`, a servers.json
 * layer for lspgate (e.g. tsserver logging: initializationOptions.tsserver.logVerbosity).
 *
 *   node dist/bench/interactive-during-catalog.js [--root DIR] [--files 480] [--queries 30] [--trace] [--servers FILE]
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { Gateway } from '../src/gateway/gateway.js';
import { generateRepo } from './gen-repo.js';
import { type OpBreakdown, OpTrace } from './op-trace.js';
import { buildQuerySet, listSourceFiles } from './query-set.js';
import { loadShippedEntry, RawLspClient } from './raw-client.js';
import { WORKLOADS } from './workloads.js';

const arg = (name: string) => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
};

function pct(xs: number[], p: number): number {
  if (!xs.length) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  return +s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!.toFixed(1);
}

async function timed(f: () => Promise<unknown>): Promise<number> {
  const t0 = performance.now();
  await f();
  return performance.now() - t0;
}

const root = fs.realpathSync(arg('--root') ?? generateRepo({ files: Number(arg('--files') ?? 480) }).root);
const entry = loadShippedEntry('typescript-language-server');
const cacheDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lspgate-interactive-'));
const files = listSourceFiles(root, entry);
const queries = await buildQuerySet({ root, entry, files, count: Number(arg('--queries') ?? 30), seed: 7, cacheDir });
const raw = await RawLspClient.start(entry, root, cacheDir);
await raw.waitReady(() => WORKLOADS.definition.raw(raw, root, queries[0]!));
const serversFile = arg('--servers');
const gateway = await Gateway.create({ root, cacheDir: path.join(cacheDir, 'lspgate'), ...(serversFile ? { serversFiles: [path.resolve(serversFile)] } : {}) });
const trace = process.argv.includes('--trace') ? new OpTrace() : undefined;
const breakdowns: Record<string, OpBreakdown[]> = { definition: [], references: [] };
const times: Record<string, { lspgate: number[]; raw: number[] }> = { definition: { lspgate: [], raw: [] }, references: { lspgate: [], raw: [] } };
let building = true;
const t0 = performance.now();
const catalog = gateway.run('index_folder', { path: root, output_format: 'json' }).finally(() => (building = false));
try {
  for (let round = 0; building; round++) {
    for (const q of queries) {
      if (!building) break;
      for (const kind of ['definition', 'references'] as const) {
        const w = WORKLOADS[kind];
        trace?.attach(gateway.context.broker.existing()[0]);
        const start = performance.now();
        const l = await timed(() => gateway.run(w.op, w.input(q)));
        if (trace && building) breakdowns[kind]!.push(trace.window(start, start + l, q.file));
        const r = await timed(() => w.raw(raw, root, q));
        // only pairs asked while the catalog was still building
        if (building) {
          times[kind]!.lspgate.push(l);
          times[kind]!.raw.push(r);
        }
      }
    }
  }
  const result = (await catalog).result as unknown as { state: string; files: number; errors: unknown[] };
  const out: Record<string, unknown> = {
    root,
    files: result.files,
    state: result.state,
    failed: result.errors.length,
    build_s: +((performance.now() - t0) / 1000).toFixed(1),
  };
  for (const [kind, t] of Object.entries(times)) {
    out[kind] = {
      samples: t.lspgate.length,
      lspgate_p50: pct(t.lspgate, 50),
      lspgate_p90: pct(t.lspgate, 90),
      raw_p50: pct(t.raw, 50),
      raw_p90: pct(t.raw, 90),
      ratio_p50: +(pct(t.lspgate, 50) / pct(t.raw, 50)).toFixed(2),
    };
  }
  if (trace) {
    for (const [kind, bs] of Object.entries(breakdowns)) {
      out[`${kind}_trace`] = {
        before_first_send_p50: pct(
          bs.map((b) => b.beforeFirstSendMs),
          50,
        ),
        server_p50: pct(
          bs.map((b) => b.serverMs),
          50,
        ),
        rest_p50: pct(
          bs.map((b) => b.totalMs - b.beforeFirstSendMs - b.serverMs),
          50,
        ),
        outstanding_at_send_p50: pct(
          bs.map((b) => b.outstandingAtSend),
          50,
        ),
        requests: Object.entries(bs.flatMap((b) => b.requests).reduce<Record<string, number>>((m, r) => ((m[r] = (m[r] ?? 0) + 1), m), {})),
        // [before first send, server, total, outstanding at send, didOpen of the file (first touch) or -1]
        samples: bs.map((b) => [
          Math.round(b.beforeFirstSendMs),
          Math.round(b.serverMs),
          Math.round(b.totalMs),
          b.outstandingAtSend,
          Math.round(b.openedAtMs ?? -1),
        ]),
      };
    }
  }
  process.stdout.write(JSON.stringify(out, null, 1) + '\n');
} finally {
  await gateway.close();
  await raw.stop();
  fs.rmSync(cacheDir, { recursive: true, force: true });
}
