/**
 * Derived state has an owner: the indexes made from a workspace's catalog (import graph, chunk
 * index, vectors, outlines, parse-tree structures, the operation cache's answers) are listed with their size in
 * list_workspaces while the workspace is open, and closing the workspace drops them — its status
 * lists none, the operation cache holds none of its answers, its feed has no listener left, and
 * the objects themselves are garbage-collected. Over typescript-language-server on a copy of
 * fixtures/ts-app.
 */
import fs from 'node:fs';
import path from 'node:path';
import v8 from 'node:v8';
import { runInNewContext } from 'node:vm';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { graphStateOf } from '../../src/analysis/imports/import-graph.js';
import type { ChangeFeed } from '../../src/catalog/change-feed.js';
import { Gateway } from '../../src/gateway/gateway.js';
import { existingChunks } from '../../src/service/search/chunk-sync.js';
import { syncedStructures } from '../../src/service/structure-index.js';
import { removeDir, tempDir, TS_APP } from '../helpers/spawn.js';

v8.setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

let tmp: string;
let gateway: Gateway;

async function run(op: string, input: Record<string, unknown> = {}): Promise<Record<string, unknown>> {
  return (await gateway.run(op, { ...input, output_format: 'json' })).result as Record<string, unknown>;
}

type Listed = { workspaces: { id: string; derived_bytes: Record<string, number> }[] };

beforeAll(async () => {
  tmp = tempDir('lspgate-derived-');
  const root = path.join(tmp, 'ws');
  fs.cpSync(TS_APP, root, { recursive: true });
  gateway = await Gateway.create({ root, cacheDir: path.join(tmp, 'cache') });
}, 120_000);

afterAll(async () => {
  await gateway?.close();
  if (tmp) removeDir(tmp);
});

/** Makes the derived state of the default workspace; weak references to its objects. */
async function deriveEverything(): Promise<{ id: string; refs: WeakRef<object>[]; feed: ChangeFeed }> {
  const ws = await gateway.workspaceFor(undefined);
  await ws.catalog.build();
  await run('query_relationships', { query_type: 'imports', target: 'src/services/report.ts' });
  await run('search_code', { query: 'report of all users', mode: 'vector' });
  // the structure index: every file's parse-tree structure (type headers, decorations), as subtypes and decorators are found
  await syncedStructures(ws, 'typescript', {});
  // The outline memo holds full outlines (the default detail answers from the catalog entry).
  for (let i = 0; i < 50 && gateway.runner.operationCacheStats().entries === 0; i++)
    await run('get_file_outline', { file: 'src/util/math.ts', detail: 'full' });
  const chunks = existingChunks(ws)!;
  const structures = ws.catalog.derived.peek({ name: 'structures' })!;
  return {
    id: ws.id,
    refs: [new WeakRef(chunks), new WeakRef(chunks.index), new WeakRef(graphStateOf(ws)), new WeakRef(structures)],
    feed: ws.catalog.changes as ChangeFeed,
  };
}

describe('derived state of a workspace', () => {
  it('is listed with its size while open, and dropped (and collected) when the workspace closes', async () => {
    const { id, refs, feed } = await deriveEverything();
    const listed = (await run('list_workspaces')) as Listed;
    const sizes = listed.workspaces.find((w) => w.id === id)!.derived_bytes;
    for (const name of ['import_graph', 'chunk_index', 'index_db', 'outlines', 'structures']) expect(sizes[name], name).toBeGreaterThan(0);
    expect(Object.keys(sizes).some((k) => k.startsWith('operation_cache:') && sizes[k]! > 0)).toBe(true);
    expect(gateway.runner.operationCacheStats().entries).toBeGreaterThan(0);
    expect(feed.listenerCount).toBeGreaterThan(1);
    const catalog = (await gateway.workspaceFor(undefined)).catalog;

    expect(await gateway.closeWorkspace(id)).toBe(true);
    expect(catalog.derived.sizes()).toEqual({});
    expect(gateway.runner.operationCacheStats().entries).toBe(0);
    expect(feed.listenerCount).toBe(0);
    // nothing else holds them: a process-wide map would
    for (let i = 0; i < 10 && refs.some((r) => r.deref() !== undefined); i++) {
      await new Promise((r) => setImmediate(r));
      gc();
    }
    expect(refs.map((r) => r.deref() === undefined)).toEqual(refs.map(() => true));

    // opened again, the workspace starts from nothing derived
    const again = await gateway.workspaceFor(undefined);
    expect(again.catalog).not.toBe(catalog);
    expect(again.catalog.derived.sizes()).toEqual({});
  }, 240_000);
});
