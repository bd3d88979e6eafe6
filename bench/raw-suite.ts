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
import { type Kind, KINDS, WORKLOADS } from './workloads.js';

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

/**
 * The raw server's phases, so that its warm samples can be taken interleaved with lspgate's (one
 * raw call, then the same lspgate call): on a shared, loaded machine, pairs taken at the same
 * moment compare better than two phases minutes apart.
 */
export class RawRunner {
  readonly result: SuiteResult;

  private constructor(
    private readonly o: RawSuiteOptions,
    private readonly client: RawLspClient,
  ) {
    this.result = { label: 'raw', serverId: o.entry.id, startToReadyMs: 0, kinds: {}, errors: {} };
  }

  /** Starts the server, waits for readiness and answers every query once (cold). */
  static async start(o: RawSuiteOptions): Promise<RawRunner> {
    const t0 = performance.now();
    const client = await RawLspClient.start(o.entry, o.root, o.cacheDir);
    const runner = new RawRunner(o, client);
    try {
      const first = o.queries[0]!;
      await client.waitReady(() => WORKLOADS.documentSymbol.raw(client, o.root, first));
      if (o.entry.readiness.kind !== 'first-reply') await WORKLOADS.documentSymbol.raw(client, o.root, first);
      runner.result.startToReadyMs = performance.now() - t0;
      for (const kind of KINDS) {
        const samples = (runner.result.kinds[kind] = emptySamples());
        for (const q of o.queries.filter(WORKLOADS[kind].applies)) {
          const ms = await timeOne(runner.result, () => WORKLOADS[kind].raw(client, o.root, q));
          if (ms !== undefined) samples.cold.push(ms);
        }
      }
    } catch (e) {
      await client.stop();
      throw e;
    }
    return runner;
  }

  async warmOne(kind: Kind, q: Query): Promise<void> {
    const ms = await timeOne(this.result, () => WORKLOADS[kind].raw(this.client, this.o.root, q));
    if (ms !== undefined) this.result.kinds[kind]!.warm.push(ms);
  }

  async warmAll(): Promise<void> {
    for (let rep = 0; rep < this.o.reps; rep++) {
      for (const kind of KINDS) for (const q of this.o.queries.filter(WORKLOADS[kind].applies)) await this.warmOne(kind, q);
    }
  }

  /** Peak RSS, stop, then the whole-workspace documentSymbol on a fresh server. */
  async finish(): Promise<SuiteResult> {
    try {
      this.result.serverRssMb = this.client.pid ? treePeakRssMb(this.client.pid) : undefined;
    } finally {
      await this.client.stop();
    }
    await wholeWorkspace(this.o, this.result);
    return this.result;
  }

  async abort(): Promise<void> {
    await this.client.stop();
  }
}

/** All phases in a row (the alternative servers' columns). */
export async function runRawSuite(o: RawSuiteOptions): Promise<SuiteResult> {
  const runner = await RawRunner.start(o);
  try {
    await runner.warmAll();
  } catch (e) {
    await runner.abort();
    throw e;
  }
  return runner.finish();
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
      const wasOpen = client.opened.has(abs);
      await client.open(abs);
      await client.request(DocumentSymbolRequest.type, { textDocument: { uri: pathToFileURL(abs).href } });
      // As the catalog does: files it opened are closed again.
      if (!wasOpen) await client.close(abs);
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
