/**
 * Issue 14 item 3: interactive find_definition / find_references while lspgate builds a cold catalog
 * of a ~500-file repository, against a raw server at the same moment. The raw server (its own
 * process, project loaded first) and lspgate (fresh cache dir, index_folder started and not awaited)
 * are asked the same questions in turn, interleaved, for as long as the catalog builds; p50/p90 of
 * each, and the ratio of the p50s (target ≤ 2x).
 *
 *   node dist/bench/interactive-during-catalog.js [--root DIR] [--files 480] [--queries 30]
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Gateway } from '../src/gateway/gateway.js';
import { generateRepo } from './gen-repo.js';
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
const gateway = await Gateway.create({ root, cacheDir: path.join(cacheDir, 'lspgate') });
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
        const l = await timed(() => gateway.run(w.op, w.input(q)));
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
  const out: Record<string, unknown> = { root, files: result.files, state: result.state, failed: result.errors.length, build_s: +((performance.now() - t0) / 1000).toFixed(1) };
  for (const [kind, t] of Object.entries(times)) {
    out[kind] = { samples: t.lspgate.length, lspgate_p50: pct(t.lspgate, 50), lspgate_p90: pct(t.lspgate, 90), raw_p50: pct(t.raw, 50), raw_p90: pct(t.raw, 90), ratio_p50: +(pct(t.lspgate, 50) / pct(t.raw, 50)).toFixed(2) };
  }
  process.stdout.write(JSON.stringify(out, null, 1) + '\n');
} finally {
  await gateway.close();
  await raw.stop();
  fs.rmSync(cacheDir, { recursive: true, force: true });
}
