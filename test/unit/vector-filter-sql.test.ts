/**
 * A filtered vector search over the workspace's chunks in SQLite selects its candidates in SQL
 * (filter-sql.ts, joined to the live chunks), not by reading each row into JavaScript: a filter that
 * excludes nearly every row still returns k hits, the right ones, and no chunk is read back but the
 * hits'. Each filter field agrees with chunkMatcher on the same chunks.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { afterEach, describe, expect, it, vi } from 'vitest';

import { ChunkFts } from '../../src/chunks/chunk-fts.js';
import type { Embedder, EmbeddingIdentity } from '../../src/chunks/embedder.js';
import { chunkMatcher } from '../../src/chunks/filter.js';
import { HISTORY_FILE } from '../../src/chunks/history.js';
import { SqlChunkIndex } from '../../src/chunks/sql-chunk-index.js';
import { openSqlite, type SqlDb } from '../../src/chunks/sqlite-handle.js';
import type { Chunk, ChunkFilter } from '../../src/chunks/types.js';
import { SqliteVectorStore } from '../../src/chunks/vector-store.js';
import { ChunkVectors } from '../../src/chunks/vectors.js';
import { symbolChunk } from '../helpers/chunks.js';

const ID: EmbeddingIdentity = { provider: 'test', model: 'lines', dim: 4, pooling: 'mean', normalize: 'l2' };

/** A vector from the text's length and a few character codes: deterministic, different per chunk. */
class TextEmbedder implements Embedder {
  readonly maxInputTokens = 1000;
  identity(): EmbeddingIdentity {
    return ID;
  }
  embed(batch: string[]): Promise<Float32Array[]> {
    return Promise.resolve(batch.map((t) => Float32Array.from([t.length % 17, t.charCodeAt(t.length - 2) % 13, t.charCodeAt(t.length - 3) % 11, 1])));
  }
}

const cleanup: (() => void)[] = [];
afterEach(() => {
  for (const f of cleanup.splice(0)) f();
});

function setUp(): { db: SqlDb; index: SqlChunkIndex; chunks: Chunk[] } {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'lspgate-vfs-'));
  const db = openSqlite(path.join(dir, 'index.db'));
  cleanup.push(() => {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const index = new SqlChunkIndex(new ChunkFts(db));
  const chunks: Chunk[] = [];
  // 100 files of 20 chunks: TypeScript everywhere but one Python file under lib/; a few tests, tiers, kinds
  for (let f = 0; f < 100; f++) {
    const py = f === 42;
    const file = py ? 'lib/deep/store.py' : `src/m${f}/file${f}.ts`;
    const cs = Array.from({ length: 20 }, (_, i) =>
      symbolChunk(file, i * 3 + 1, `function fn${f}_${i}() { return ${f * 20 + i}; }`, `fn${f}_${i}`, {
        language: py ? 'python' : 'typescript',
        is_test: i % 10 === 0,
        symbol_kind: i % 2 ? 'function' : 'method',
        commit_hash: 'old',
        ...(i === 5 ? { chunk_kind: 'invariant' as const, tier: 2 as const } : {}),
      }),
    );
    index.replaceFile(file, `h${f}`, cs);
    chunks.push(...cs);
  }
  const history = [
    symbolChunk(HISTORY_FILE, 1, 'fix the store', 'c1', { chunk_kind: 'commit_message', commit_hash: 'abc123', committed_at_utc: '2026-01-02T00:00:00Z' }),
  ];
  index.replaceFile(HISTORY_FILE, 'abc123', history);
  chunks.push(...history);
  index.restamp('head1');
  index.indexedHead = 'head1';
  return { db, index, chunks };
}

describe('filtered vector search in SQL', () => {
  it('a filter that excludes almost every row returns k hits, reading back only the hits', async () => {
    const { db, index } = setUp();
    const cv = new ChunkVectors(new TextEmbedder(), SqliteVectorStore.open(db, ID));
    await cv.update(index, 'head1');
    const live = vi.spyOn(index, 'live');
    const [q] = await cv.embed(['function fn42_3() { return 843; }']);
    const hits = cv.search(index, q!, 10, { language: 'python', is_test: false });
    expect(hits).toHaveLength(10);
    expect(hits.every((h) => h.chunk.file === 'lib/deep/store.py' && !h.chunk.is_test)).toBe(true);
    // one read per hit: before, every one of the 2,001 rows was matched in JavaScript through index.live
    expect(live.mock.calls.length).toBe(10);
    expect(cv.search(index, q!, 10, { path: 'lib/**', symbol_kinds: ['method'] }).map((h) => h.chunk.symbol_kind)).toEqual(Array(10).fill('method'));
    expect(cv.search(index, q!, 10, { path: '*.py' })).toEqual([]);
  });

  it('agrees with chunkMatcher on every field', async () => {
    const { db, index, chunks } = setUp();
    const cv = new ChunkVectors(new TextEmbedder(), SqliteVectorStore.open(db, ID));
    await cv.update(index, 'head1');
    const [q] = await cv.embed(['anything at all']);
    const live = (c: Chunk) => index.live(c.id)!;
    const filters: ChunkFilter[] = [
      {},
      { language: 'PYTHON' },
      { path: 'src/m1*/**' },
      { symbol_kinds: ['Function'] },
      { commit_hash: 'head' },
      { commit_hash: 'abc', chunk_kinds: ['commit_message'] },
      { is_test: true },
      { chunk_kinds: ['invariant'], tier: [2] },
      { symbol: 'fn7_7' },
      { chunk_kinds: ['commit_message'], as_of: '2026-01-01T00:00:00Z' },
      { chunk_kinds: ['commit_message'], as_of: '2026-02-01T00:00:00Z' },
    ];
    for (const f of filters) {
      const want = chunks.map(live).filter(chunkMatcher(f)).length;
      const got = cv.search(index, q!, 4096, f);
      expect([JSON.stringify(f), got.length]).toEqual([JSON.stringify(f), want]);
    }
  });
});
