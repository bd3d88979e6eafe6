/**
 * A new file read early (an outline that does not wait for any build) and then by a reader that
 * waits for the catalog: both get the one entry its parse tree gave — the second read neither asks
 * a server nor feeds a second change, so the language server is told of the new file once (one
 * workspace/didChangeWatchedFiles) and the import graph marks it stale once. (Before the catalog came
 * from parse trees alone, the server's entry replaced the syntax entry and the feed said so with
 * `entryOnly`.) Over typescript-language-server on a copy of fixtures/ts-app, the watcher off so that
 * only these two reads feed the change.
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

  it('a file read early and then by a waiting reader is one change: told to the server once, marked stale once', { timeout: 150_000 }, async () => {
    const root = path.join(tmp, 'ws');
    fs.cpSync(TS_APP, root, { recursive: true });
    const gateway = await Gateway.create({ root, cacheDir: path.join(tmp, 'cache') });
    try {
      const ws = await gateway.workspaceFor(undefined);
      ws.catalog.configure({ watch: false });
      await ws.catalog.build();
      // the server runs (a semantic question started it), so that what it is told can be counted
      await gateway.run('find_definition', { file: 'src/util/math.ts', line: 5, output_format: 'json' });
      const graph = graphStateOf(ws);
      graph.stale.clear();
      const watched: unknown[] = [];
      for (const s of gateway.context.broker.existing())
        s.onTrace((e) => e.direction === 'send' && e.method === 'workspace/didChangeWatchedFiles' && watched.push(e.payload));
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
      expect((await ws.catalog.fileSymbols(FILE)).map((s) => s.server)).toEqual(['tree-sitter']);
      expect(fed).toEqual([[FILE, 'added', false]]);
      expect(staleAtEntryOnly).toEqual([]);
      expect(graph.stale.size).toBe(0);
      expect(watched).toHaveLength(1);
    } finally {
      await gateway.close();
    }
  });
});
