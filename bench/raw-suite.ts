/**
 * The raw-server column: the same queries sent straight to the server, cold then warm, then the
 * whole workspace's documentSymbol (what the catalog is compared with).
 */
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { DocumentSymbolRequest } from 'vscode-languageserver-protocol';
import type { ServerEntry } from '../src/config/schema.js';
import type { Query } from './query-set.js';
import { RawLspClient, treePeakRssMb } from './raw-client.js';
import { countError, emptySamples, type SuiteResult } from './suite-types.js';
import { KINDS, WORKLOADS } from './workloads.js';

export interface RawSuiteOptions {
  entry: ServerEntry;
  root: string;
  queries: Query[];
  /** Every source file (for the whole-workspace documentSymbol). */
  files: string[];
  reps: number;
  cacheDir: string;
  /** Parallel documentSymbol requests in the whole-workspace pass (lspgate's perServerConcurrency). */
  concurrency: number;
}

export async function runRawSuite(o: RawSuiteOptions): Promise<SuiteResult> {
  const result: SuiteResult = { label: 'raw', serverId: o.entry.id, startToReadyMs: 0, kinds: {}, errors: {} };
  const t0 = performance.now();
  const client = await RawLspClient.start(o.entry, o.root, o.cacheDir);
  try {
    const first = o.queries[0]!;
    await client.waitReady(() => WORKLOADS.documentSymbol.raw(client, o.root, first));
    if (o.entry.readiness.kind !== 'first-reply') await WORKLOADS.documentSymbol.raw(client, o.root, first);
    result.startToReadyMs = performance.now() - t0;

    for (const kind of KINDS) {
      const samples = (result.kinds[kind] = emptySamples());
      for (const q of o.queries.filter(WORKLOADS[kind].applies)) {
        const ms = await timeOne(result, () => WORKLOADS[kind].raw(client, o.root, q));
        if (ms !== undefined) samples.cold.push(ms);
      }
    }
    for (let rep = 0; rep < o.reps; rep++) {
      for (const kind of KINDS) {
        for (const q of o.queries.filter(WORKLOADS[kind].applies)) {
          const ms = await timeOne(result, () => WORKLOADS[kind].raw(client, o.root, q));
          if (ms !== undefined) result.kinds[kind]!.warm.push(ms);
        }
      }
    }

    result.serverRssMb = client.pid ? treePeakRssMb(client.pid) : undefined;
  } finally {
    await client.stop();
  }
  await wholeWorkspace(o, result);
  return result;
}

/** documentSymbol of every file on a fresh server once ready: what catalog.build() is compared with. */
async function wholeWorkspace(o: RawSuiteOptions, result: SuiteResult): Promise<void> {
  const client = await RawLspClient.start(o.entry, o.root, `${o.cacheDir}-catalog`);
  try {
    const first = o.queries[0]!;
    await client.waitReady(() => WORKLOADS.documentSymbol.raw(client, o.root, first));
    const t = performance.now();
    await pool(o.files, o.concurrency, async (rel) => {
      const abs = path.join(o.root, rel);
      await client.open(abs);
      await client.request(DocumentSymbolRequest.type, { textDocument: { uri: pathToFileURL(abs).href } });
    });
    result.catalogMs = performance.now() - t;
    result.catalogFiles = o.files.length;
  } finally {
    await client.stop();
  }
}

async function timeOne(result: SuiteResult, fn: () => Promise<unknown>): Promise<number | undefined> {
  const t = performance.now();
  try {
    await fn();
    return performance.now() - t;
  } catch (e) {
    countError(result, e);
    return undefined;
  }
}

export async function pool<T>(items: T[], concurrency: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await fn(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(concurrency, items.length)) }, worker));
}
