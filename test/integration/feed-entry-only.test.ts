/**
 * A file first read early (its syntax entry, for an answer that does not wait for the server) and
 * then through its server: the server's entry takes the syntax entry's place on the same bytes,
 * and the change feed says so with `entryOnly`. Nothing that reads the bytes acts on it again — the
 * language server was told of the new file once (one workspace/didChangeWatchedFiles), and the import
 * graph marks it stale once. Over typescript-language-server on a copy of fixtures/ts-app, the
 * watcher off so that only these two reads feed the change.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { graphStateOf } from '../../src/analysis/imports/import-graph.js';
import type { CatalogChange } from '../../src/core/catalog.js';
import { Gateway } from '../../src/gateway/gateway.js';
import { removeDir, tempDir, TS_APP } from '../helpers/spawn.js';

const FILE = 'src/util/late.ts';

describe('entry-only changes of the feed', () => {
  const tmp = tempDir('lspgate-entry-only-');
  afterAll(() => removeDir(tmp));

  it('the server entry that replaces a syntax entry reaches neither the server nor the import graph', { timeout: 150_000 }, async () => {
    const root = path.join(tmp, 'ws');
    fs.cpSync(TS_APP, root, { recursive: true });
    const gateway = await Gateway.create({ root, cacheDir: path.join(tmp, 'cache') });
    try {
      const ws = await gateway.workspaceFor(undefined);
      ws.catalog.configure({ watch: false });
      await ws.catalog.build();
      const graph = graphStateOf(ws);
      graph.stale.clear();
      const watched: unknown[] = [];
      for (const s of gateway.context.broker.existing()) s.onTrace((e) => e.direction === 'send' && e.method === 'workspace/didChangeWatchedFiles' && watched.push(e.payload));
      // subscribed after the graph: each batch has reached the graph when this listener sees it
      const fed: [string, string, boolean][] = [];
      const staleAtEntryOnly: number[] = [];
      ws.catalog.changes.subscribe((b) => {
        for (const c of b.changes as CatalogChange[]) {
          fed.push([c.rel, c.kind, !!c.entryOnly]);
          if (c.entryOnly) staleAtEntryOnly.push(graph.stale.size);
          else graph.stale.clear();
        }
      });
      fs.writeFileSync(path.join(root, FILE), 'export function lateMarker(n: number): number {\n  return n;\n}\n');
      expect((await ws.catalog.earlyFile(FILE)).tier).toBe('syntax');
      expect((await ws.catalog.fileSymbols(FILE)).map((s) => s.server)).toEqual(['typescript-language-server']);
      expect(fed).toEqual([
        [FILE, 'added', false],
        [FILE, 'changed', true],
      ]);
      expect(staleAtEntryOnly).toEqual([0]);
      expect(watched).toHaveLength(1);
    } finally {
      await gateway.close();
    }
  });
});
