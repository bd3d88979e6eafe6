/**
 * The SQLite VectorStore (seed 004's Upsert, DeleteByFile, Search with a filter, Stats, Close) on
 * sqlite-vec: exact cosine against distances computed here, filters applied before the cut,
 * persistence across opens, a process killed mid-write leaving the previous state, and the embedder
 * checksum (another identity is INDEX_MISMATCH with a reindex hint). ChunkVectors on top: a moved
 * chunk keeps its vector (only new text is embedded).
 */
import { spawnSync } from 'node:child_process';

import { describe, expect, it } from 'vitest';

import { HeapChunkIndex } from '../../src/chunks/chunk-index.js';
import type { Embedder, EmbeddingIdentity } from '../../src/chunks/embedder.js';
import { chunkId, contentSha256 } from '../../src/chunks/ids.js';
import { readStats, SqliteVectorStore, type StoredChunk } from '../../src/chunks/vector-store.js';
import { ChunkVectors } from '../../src/chunks/vectors.js';
import { LspgateError } from '../../src/errors/errors.js';
import { symbolChunk, tempDatabases } from '../helpers/chunks.js';

const { tmp, db } = tempDatabases('lspgate-vs-');
const open = (file: string, id: EmbeddingIdentity, opts: { reindex?: boolean } = {}) => SqliteVectorStore.open(db(file), id, opts);

const ID3: EmbeddingIdentity = { provider: 'test', model: 'three', dim: 3, pooling: 'mean', normalize: 'l2' };

function rec(file: string, n: number, extra: Partial<StoredChunk> = {}): StoredChunk {
  const sha = contentSha256(`${file}:${n}`);
  return {
    id: chunkId(file, n, n, sha),
    file,
    start_line: n,
    end_line: n,
    language: 'typescript',
    is_test: false,
    commit_hash: 'c1',
    content_sha256: sha,
    embed_key: sha,
    ...extra,
  };
}

const v = (...xs: number[]) => Float32Array.from(xs);

function cosineDistance(a: Float32Array, b: Float32Array): number {
  const dot = a.reduce((s, x, i) => s + x * b[i]!, 0);
  return 1 - dot / (Math.hypot(...a) * Math.hypot(...b));
}

async function failure(f: () => unknown): Promise<LspgateError> {
  try {
    await f();
  } catch (e) {
    if (e instanceof LspgateError) return e;
    throw e;
  }
  throw new Error('expected a coded failure');
}

describe('SqliteVectorStore', () => {
  it('searches by exact cosine, nearest first, with the filter applied before the cut', () => {
    const s = open(tmp(), ID3);
    const vecs = [v(1, 0, 0), v(1, 1, 0), v(0, 1, 0), v(0, 0, 2)];
    const recs = [rec('a.ts', 1), rec('a.ts', 2), rec('b.py', 3, { language: 'python' }), rec('src/deep/c.ts', 4, { symbol_kind: 'function' })];
    s.upsert(recs, vecs);
    const q = v(2, 1, 0);
    const hits = s.search(q, 10);
    const expected = recs.map((r, i) => ({ id: r.id, d: cosineDistance(q, vecs[i]!) })).sort((a, b) => a.d - b.d);
    expect(hits.map((h) => h.chunk.id)).toEqual(expected.map((e) => e.id));
    hits.forEach((h, i) => expect(h.distance).toBeCloseTo(expected[i]!.d, 5));
    expect(s.search(q, 1).map((h) => h.chunk.id)).toEqual([expected[0]!.id]);
    // b.py is the third nearest: a post-filter of the top 1 would find nothing
    expect(s.search(q, 1, { language: 'python' }).map((h) => h.chunk.file)).toEqual(['b.py']);
    expect(s.search(q, 5, { path: 'src/**/*.ts' }).map((h) => h.chunk.file)).toEqual(['src/deep/c.ts']);
    expect(s.search(q, 5, { symbol_kinds: ['function'] })).toHaveLength(1);
    expect(s.search(q, 5, { language: 'rust' })).toEqual([]);
    expect(
      s
        .search(q, 5, undefined, (c) => c.file !== 'a.ts')
        .map((h) => h.chunk.file)
        .sort(),
    ).toEqual(['b.py', 'src/deep/c.ts']);
    expect(s.stats()).toMatchObject({ chunk_count: 4, embedding_model: 'three', embedding_dim: 3, embedder_checksum: expect.any(String) });
    expect(s.stats().size_bytes).toBe(4 * 3 * 4);
  });

  it('persists: a second open sees the same rows, deletes and replacements; Close is idempotent', () => {
    const file = tmp();
    const s = open(file, ID3);
    s.upsert([rec('a.ts', 1), rec('a.ts', 2), rec('b.ts', 3)], [v(1, 0, 0), v(0, 1, 0), v(0, 0, 1)]);
    s.deleteByFile('a.ts');
    s.replace(['b.ts'], [rec('b.ts', 4)], [v(1, 1, 1)]);
    s.setHead('abc');
    s.close();
    s.close();
    const again = open(file, ID3);
    expect(again.files()).toEqual(['b.ts']);
    expect(again.fileRecords('b.ts').map((r) => r.chunk.start_line)).toEqual([4]);
    expect([...again.fileRecords('b.ts')[0]!.vector].map((x) => +x.toFixed(4))).toEqual([0.5774, 0.5774, 0.5774]);
    expect(again.stats()).toMatchObject({ chunk_count: 1, indexed_head: 'abc' });
    expect(readStats(db(file))?.chunk_count).toBe(1);
    // the tables are plain SQL: the vec0 table is keyed by the record's rowid
    const h = db(file);
    expect(h.prepare('SELECT count(*) AS n FROM vec_chunks v JOIN chunk_vectors c ON c.rowid = v.chunk_rowid').get()!.n).toBe(1);
    expect(h.prepare("SELECT value FROM manifest WHERE key = 'embedding_dim'").get()!.value).toBe('3');
  });

  it('a process killed in the middle of a replace leaves the previous state of the file', () => {
    const file = tmp();
    const s = open(file, ID3);
    s.upsert([rec('a.ts', 1), rec('a.ts', 2)], [v(1, 0, 0), v(0, 1, 0)]);
    s.close();
    // another process starts replacing a.ts (its rows deleted, new ones half written) and is killed
    const child = spawnSync(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        `import { DatabaseSync } from 'node:sqlite';
         const db = new DatabaseSync(${JSON.stringify(file)});
         db.exec("PRAGMA journal_mode=WAL; BEGIN IMMEDIATE; DELETE FROM chunk_vectors WHERE file = 'a.ts';");
         db.exec("INSERT INTO chunk_vectors(id, file, start_line, end_line, language, is_test, commit_hash, content_sha256, embed_key) VALUES ('x', 'a.ts', 9, 9, 'typescript', 0, '', '', '')");
         process.kill(process.pid, 'SIGKILL');`,
      ],
      { encoding: 'utf8' },
    );
    expect(child.signal).toBe('SIGKILL');
    const again = open(file, ID3);
    expect(
      again
        .fileRecords('a.ts')
        .map((r) => r.chunk.start_line)
        .sort(),
    ).toEqual([1, 2]);
    expect(again.search(v(0, 1, 0), 1)[0]!.chunk.start_line).toBe(2);
  });

  it('a moved chunk keeps its vector: the indexer passes the stored one back under the new id', () => {
    const file = tmp();
    const s = open(file, { ...ID3, dim: 256 });
    const big = (x: number) => Float32Array.from({ length: 256 }, (_, i) => Math.sin(i * x));
    s.upsert([rec('a.ts', 1, { embed_key: 'k1' }), rec('a.ts', 2, { embed_key: 'k2' })], [big(1), big(2)]);
    const moved = [rec('a.ts', 11, { embed_key: 'k1' }), rec('a.ts', 12, { embed_key: 'k2' })];
    s.replace(
      ['a.ts'],
      moved,
      s
        .fileRecords('a.ts')
        .sort((x, y) => x.chunk.start_line - y.chunk.start_line)
        .map((r) => r.vector),
    );
    const again = open(file, { ...ID3, dim: 256 });
    const got = again.fileRecords('a.ts').sort((x, y) => x.chunk.start_line - y.chunk.start_line);
    expect(got.map((r) => r.chunk.start_line)).toEqual([11, 12]);
    const hit = again.search(big(2), 1)[0]!;
    expect(hit.chunk.start_line).toBe(12);
    expect(hit.distance).toBeCloseTo(0, 5);
  });

  it('refuses an index built by another embedder with INDEX_MISMATCH and a reindex hint; reindex rebuilds', async () => {
    const file = tmp();
    open(file, ID3).upsert([rec('a.ts', 1)], [v(1, 0, 0)]);
    for (const other of [
      { ...ID3, model: 'four' },
      { ...ID3, dim: 4 },
      { ...ID3, provider: 'ollama' },
      { ...ID3, pooling: 'cls' },
      { ...ID3, normalize: 'none' },
    ]) {
      const e = await failure(() => open(file, other));
      expect(e.code).toBe('INDEX_MISMATCH');
      expect(e.message).toContain('reindex');
      expect(e.details).toMatchObject({ index_embedder: ID3, configured_embedder: other });
      expect(String(e.details?.hint)).toContain('reindex: true');
    }
    // a manifest written by another store schema is refused the same way
    const h = db(file);
    h.prepare("UPDATE manifest SET value = '0.9' WHERE key = 'schema_version'").run();
    expect((await failure(() => open(file, ID3))).message).toMatch(/schema 0\.9.*reindex/);
    h.prepare("UPDATE manifest SET value = ? WHERE key = 'schema_version'").run(readStats(open(file, ID3, { reindex: true }).db)!.schema_version);
    open(file, ID3).upsert([rec('a.ts', 1)], [v(1, 0, 0)]);
    expect(open(file, ID3).size).toBe(1);
    const rebuilt = open(file, { ...ID3, dim: 4 }, { reindex: true });
    expect(rebuilt.size).toBe(0);
    expect(rebuilt.stats()).toMatchObject({ embedding_dim: 4 });
    expect(open(file, { ...ID3, dim: 4 }).size).toBe(0);
  });

  it('starts afresh, and says so, when the manifest names tables that are gone', () => {
    const file = tmp();
    open(file, ID3).upsert([rec('a.ts', 1)], [v(1, 0, 0)]);
    db(file).exec('DROP TABLE vec_chunks');
    const s = open(file, ID3);
    expect(s.size).toBe(0);
    expect(s.rebuiltBecause).toMatch(/rebuilt/);
    expect(open(file, ID3).rebuiltBecause).toBeUndefined();
  });

  it('never writes a non-finite value, and refuses a vector of another dimension', async () => {
    const s = open(tmp(), ID3);
    expect((await failure(() => s.upsert([rec('a.ts', 1)], [v(Number.POSITIVE_INFINITY, 0, 0)]))).code).toBe('INTERNAL');
    expect((await failure(() => s.upsert([rec('a.ts', 1)], [v(1, 0)]))).message).toMatch(/2-dimensional/);
    expect(s.size).toBe(0);
  });

  it('an index holding a non-finite vector (written behind its back) is never ranked: search drops it and says why', () => {
    const file = tmp();
    open(file, ID3).upsert([rec('a.ts', 1), rec('a.ts', 2)], [v(1, 0, 0), v(0, 1, 0)]);
    const nan = new Uint8Array(v(Number.NaN, 1, 0).buffer);
    db(file).prepare('UPDATE vec_chunks SET embedding = ? WHERE chunk_rowid = (SELECT max(chunk_rowid) FROM vec_chunks)').run(nan);
    const again = open(file, ID3);
    // never handed back for reuse, never ranked
    expect(again.fileRecords('a.ts').map((r) => r.chunk.start_line)).toEqual([1]);
    expect(again.search(v(0, 1, 0), 5)).toEqual([]);
    expect(again.size).toBe(0);
    expect(again.rebuiltBecause).toMatch(/non-finite.*rebuilt/);
    expect(open(file, ID3).rebuiltBecause).toBeUndefined();
  });
});

/** Counts what it embeds: a vector of the text's length and first char codes. */
class CountingEmbedder implements Embedder {
  readonly maxInputTokens = 1000;
  embedded: string[] = [];
  identity(): EmbeddingIdentity {
    return ID3;
  }
  embed(batch: string[]): Promise<Float32Array[]> {
    this.embedded.push(...batch);
    return Promise.resolve(batch.map((t) => v(t.length, t.charCodeAt(t.length - 1) || 1, 1)));
  }
}

describe('ChunkVectors over the store', () => {
  it('embeds only new text: a chunk that moved keeps its vector; a second process re-embeds nothing', async () => {
    const dir = tmp();
    const index = new HeapChunkIndex();
    index.replaceFile('a.ts', 'h1', [symbolChunk('a.ts', 1, 'function alpha() {}', 'alpha'), symbolChunk('a.ts', 3, 'function beta() {}', 'beta')]);
    const emb = new CountingEmbedder();
    const cv = new ChunkVectors(emb, open(dir, ID3));
    expect(await cv.update(index, 'h')).toMatchObject({ embedded: 2, reused: 0 });
    // An edit above both: they move (new ids), one changes.
    index.replaceFile('a.ts', 'h2', [symbolChunk('a.ts', 2, 'function alpha() {}', 'alpha'), symbolChunk('a.ts', 4, 'function beta() { return 1; }', 'beta')]);
    emb.embedded = [];
    expect(await cv.update(index, 'h')).toMatchObject({ embedded: 1, reused: 1, files: 1 });
    expect(emb.embedded).toHaveLength(1);
    expect(emb.embedded[0]).toContain('return 1');
    expect(await cv.update(index, 'h')).toMatchObject({ embedded: 0, files: 0 });
    const hits = cv.search(index, (await emb.embed(['a.ts\nfunction beta() { return 1; }']))[0]!, 2, undefined);
    expect(hits.map((h) => h.chunk.symbol_name).sort()).toEqual(['alpha', 'beta']);
    const second = new CountingEmbedder();
    const cv2 = new ChunkVectors(second, open(dir, ID3));
    expect(await cv2.update(index, 'h')).toMatchObject({ embedded: 0, files: 0 });
    expect(second.embedded).toEqual([]);
    index.removeFile('a.ts');
    expect(await cv2.update(index, 'h')).toMatchObject({ files: 1 });
    expect(open(dir, ID3).size).toBe(0);
  });

  it('yields to the event loop between embedding steps (background work does not hold the process)', async () => {
    const index = new HeapChunkIndex();
    for (let f = 0; f < 60; f++) {
      const file = `f${f}.ts`;
      index.replaceFile(
        file,
        `h${f}`,
        Array.from({ length: 10 }, (_, i) => symbolChunk(file, i * 2 + 1, `function fn${f}_${i}() {}`, `fn${f}_${i}`)),
      );
    }
    const emb = new CountingEmbedder();
    const cv = new ChunkVectors(emb, open(tmp(), ID3));
    const update = cv.update(index, 'h');
    // a macrotask queued now (an interactive request's answer arriving) runs while the 600 chunks
    // are still being embedded, not after all of them: without the yields it saw all 600 embedded
    const seenByOtherWork = new Promise<number>((resolve) => setImmediate(() => resolve(emb.embedded.length)));
    expect(await update).toMatchObject({ embedded: 600 });
    expect(await seenByOtherWork).toBeLessThan(600);
  });
});
