/**
 * One change feed: a file changed on disk reaches, from the catalog's feed and before any further
 * question is asked, the language server (workspace/didChangeWatchedFiles), an MCP resource
 * subscription (notifications/resources/updated), the import graph (the file is stale; its edges
 * change at the next question), the chunk index (its chunks are re-made in the background) and the
 * operation cache (the workspace's answers are dropped). Over typescript-language-server on a copy
 * of fixtures/ts-app, with the real MCP client in process.
 */
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

import type { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { graphStateOf } from '../../src/analysis/imports/import-graph.js';
import { outlineUri } from '../../src/frontends/mcp/resources.js';
import { Gateway } from '../../src/gateway/gateway.js';
import type { TraceEvent } from '../../src/lsp/types.js';
import { existingChunks } from '../../src/service/search/chunk-sync.js';
import { connectInProcess } from '../helpers/mcp-client.js';
import { removeDir, tempDir, TS_APP, waitFor } from '../helpers/spawn.js';

const FILE = 'src/services/report.ts';
let tmp: string;
let root: string;
let gateway: Gateway;
let client: Client;
let close: () => Promise<void>;
const updated: string[] = [];

async function run(op: string, input: Record<string, unknown>): Promise<Record<string, unknown>> {
  return (await gateway.run(op, { ...input, output_format: 'json' })).result as Record<string, unknown>;
}

async function importTargets(file: string): Promise<string[]> {
  const r = (await run('query_relationships', { query_type: 'imports', target: file, max_depth: 1 })) as { results: { to: string }[] };
  return r.results.map((x) => x.to).sort();
}

beforeAll(async () => {
  tmp = tempDir('lspgate-feed-');
  root = path.join(tmp, 'ws');
  fs.cpSync(TS_APP, root, { recursive: true });
  gateway = await Gateway.create({ root, cacheDir: path.join(tmp, 'cache') });
  ({ client, close } = await connectInProcess(gateway));
  client.setNotificationHandler('notifications/resources/updated', (n) => void updated.push(n.params.uri));
}, 120_000);

afterAll(async () => {
  await close?.();
  await gateway?.close();
  if (tmp) removeDir(tmp);
});

describe('the catalog change feed', () => {
  it('one file changed on disk reaches the server, a subscription, the import graph, the chunk index and the operation cache', async () => {
    const ws = await gateway.workspaceFor(undefined);
    await ws.catalog.build();
    expect(ws.catalog.watching).toBe(true);
    // every consumer exists before the change: the graph, the chunks, a cached answer, a subscription
    expect(await importTargets(FILE)).not.toContain('src/util/math.ts');
    await run('search_code', { query: 'report of all users' });
    const chunks = existingChunks(ws)!;
    expect(chunks.index.fileChunks(FILE).length).toBeGreaterThan(0);
    const graph = graphStateOf(ws);
    expect(graph.stale.size).toBe(0);
    for (let i = 0; i < 50 && gateway.runner.operationCacheStats().entries === 0; i++) await run('get_file_outline', { file: 'src/util/math.ts' });
    expect(gateway.runner.operationCacheStats().entries).toBeGreaterThan(0);
    const wsId = ((await client.callTool({ name: 'list_workspaces', arguments: {} })).structuredContent as { workspaces: { id: string }[] }).workspaces[0]!.id;
    const uri = outlineUri(wsId, FILE);
    await client.subscribeResource({ uri });
    const sent: TraceEvent[] = [];
    for (const s of gateway.context.broker.existing()) s.onTrace((e) => e.direction === 'send' && sent.push(e));
    const fileUri = pathToFileURL(path.join(root, FILE)).href;

    const text = fs.readFileSync(path.join(root, FILE), 'utf8');
    fs.writeFileSync(
      path.join(root, FILE),
      `import { add } from '../util/math.js';\n${text}\n/** Counts the report's users twice over. */\nexport function feedMarkerTotal(users: User[]): number {\n  return add(users.length, users.length);\n}\n`,
    );

    // the subscription: told by the feed
    await waitFor(() => updated.includes(uri), 'notifications/resources/updated for the subscribed outline');
    // the server: didChangeWatchedFiles for the file
    const watched = (e: TraceEvent) => e.method === 'workspace/didChangeWatchedFiles' && JSON.stringify(e.payload).includes(fileUri);
    await waitFor(() => sent.some(watched), 'workspace/didChangeWatchedFiles naming the file');
    // the import graph: the feed marked the file stale, before anyone asked
    expect(graph.stale.has(FILE)).toBe(true);
    // the operation cache: the workspace's answers were dropped, before anyone asked
    expect(gateway.runner.operationCacheStats().entries).toBe(0);
    // the chunk index: re-made in the background from the feed, no search asked
    await waitFor(() => chunks.index.fileChunks(FILE).some((c) => c.text.includes('feedMarkerTotal')), 'the chunk index to re-chunk the file');
    await chunks.settled();

    // the graph's edges for the file changed at the next question, and only then
    expect(await importTargets(FILE)).toContain('src/util/math.ts');
    expect(graph.stale.size).toBe(0);
    const hit = (await run('search_code', { query: 'counts the report users twice' })) as { hits: { chunk: { file: string; symbol_name?: string } }[] };
    expect(hit.hits[0]?.chunk).toMatchObject({ file: FILE, symbol_name: 'feedMarkerTotal' });
  }, 240_000);
});
