/**
 * The workspace's chunks have one copy, in its database: over typescript-language-server
 * on a copy of fixtures/ts-app, a row changed in `chunks` behind the process is what search_code and
 * the index answer (no heap copy to answer instead); the heap holds less than the chunks' text; a
 * new process on the same cache re-chunks nothing when no file changed; and a stored index cut by
 * another chunker version is cut again whole, bytes unchanged.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { openSqlite, type SqlDb } from '../../src/chunks/sqlite-handle.js';
import { Gateway } from '../../src/gateway/gateway.js';
import { chunksOf, syncChunks } from '../../src/service/search/chunk-sync.js';
import { indexDbPath } from '../../src/store/db.js';
import { FIXTURES } from '../helpers/gateway.js';

type Hit = { chunk: { id: string; file: string; symbol_name?: string; text?: string } };

describe('search_code: the chunks live in the workspace database only', () => {
  let root: string;
  let cacheDir: string;
  let gateway: Gateway | undefined;
  let side: SqlDb | undefined;

  const open = async () => {
    await gateway?.close();
    gateway = await Gateway.create({ root, cacheDir });
    const ws = await gateway.workspaceFor(undefined);
    await ws.catalog.build();
    return ws;
  };
  const search = async (query: string) =>
    ((await gateway!.run('search_code', { query, include_text: true, mode: 'bm25', output_format: 'json' })).result as unknown as { hits: Hit[] }).hits;

  beforeAll(() => {
    root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'lspgate-chunkdb-')));
    fs.cpSync(path.join(FIXTURES, 'ts-app'), root, { recursive: true });
    fs.writeFileSync(path.join(root, 'NOTES.md'), '# Notes\n\n## Deployment rollback\n\nRevert the release tag.\n');
    cacheDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lspgate-'));
  });
  afterAll(async () => {
    side?.close();
    await gateway?.close();
    fs.rmSync(cacheDir, { recursive: true, force: true });
    fs.rmSync(root, { recursive: true, force: true });
  });

  it('answers from the rows: a row changed behind the process is what comes back', async () => {
    const ws = await open();
    const top = (await search('pad a value on the left'))[0]!;
    expect(top.chunk.symbol_name).toBe('padLeft');
    side = openSqlite(indexDbPath(cacheDir, ws.id));
    side.prepare("UPDATE chunks SET text = text || '\n// edited in the database' WHERE id = ?").run(top.chunk.id);
    const again = (await search('pad a value on the left'))[0]!;
    expect(again.chunk.id).toBe(top.chunk.id);
    expect(again.chunk.text).toMatch(/edited in the database$/);
    const s = chunksOf(ws, gateway!.context.limits);
    expect(s.index.live(top.chunk.id)?.text).toMatch(/edited in the database$/);
    // the heap holds bounded caches, not the chunks: less than their text
    const stats = s.index.stats();
    expect(stats.chunk_count).toBeGreaterThan(10);
    expect(s.bytes()).toBeLessThan(stats.text_bytes);
  });

  it('a new process on the same cache re-chunks nothing when no file changed', async () => {
    const ws = await open();
    const report = await syncChunks(ws, gateway!.context.limits, { cacheDir });
    expect(report.rechunked).toEqual([]);
    expect(report.index.chunkCount).toBeGreaterThan(10);
    expect((await search('pad a value on the left'))[0]!.chunk.symbol_name).toBe('padLeft');
  });

  it('chunks cut by another chunker version are cut again, bytes unchanged', async () => {
    await gateway!.close();
    gateway = undefined;
    side!.prepare("UPDATE meta SET value = 'older' WHERE key = 'chunker_version'").run();
    const ws = await open();
    const report = await syncChunks(ws, gateway!.context.limits, { cacheDir });
    expect(report.rechunked).toEqual(expect.arrayContaining(['NOTES.md', 'src/util/strings.ts']));
    // the edit made in the database is gone with the old cuts
    expect((await search('pad a value on the left'))[0]!.chunk.text).not.toMatch(/edited in the database/);
  });
});
