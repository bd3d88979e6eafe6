/**
 * Keeps a VectorStore in step with a ChunkIndex for one embedder. A file whose indexed chunk ids
 * differ from the stored ones is replaced in the store (the store's DeleteByFile + Upsert, in one
 * durable step); only chunks whose embedded text is new are sent to the embedder — a chunk that
 * merely moved (new lines, so a new id) keeps its vector, found by the hash of what was embedded.
 * Files no longer indexed are deleted. Search maps the store's hits back to the live chunks.
 */
import { LspgateError } from '../errors/errors.js';
import { sha256 } from '../util/hash.js';
import { yieldToEventLoop } from '../util/work-class.js';
import type { ChunkIndex } from './chunk-index.js';
import { type Embedder, identityChecksum } from './embedder.js';
import { allFinite } from './embedding-answer.js';
import { chunkMatcher } from './filter.js';
import type { Chunk, ChunkFilter } from './types.js';
import type { StoredChunk, VectorStore } from './vector-store.js';

const EMBED_CHARS = 4000;
/** Chunks embedded and written per store step: a crash mid-build keeps what was done. */
const STEP_CHUNKS = 256;

export interface VectorHit {
  chunk: Chunk;
  distance: number;
}

export interface VectorUpdate {
  /** Chunks sent to the embedder. */
  embedded: number;
  /** Chunks whose stored vector was reused under a new id. */
  reused: number;
  /** Chunks whose vector came from `seed` (the published index's, same embedder) instead of the embedder. */
  imported: number;
  files: number;
}

/** What is embedded: name, signature and docstring at the head, so a cut keeps them. */
export function embeddingText(c: Chunk): string {
  return [c.symbol_name ?? '', c.signature ?? '', c.docstring ?? '', c.file, c.text].join('\n').slice(0, EMBED_CHARS);
}

function stored(c: Chunk, key: string): StoredChunk {
  const s: StoredChunk = {
    id: c.id,
    file: c.file,
    start_line: c.start_line,
    end_line: c.end_line,
    language: c.language,
    is_test: c.is_test,
    commit_hash: c.commit_hash,
    content_sha256: c.content_sha256,
    embed_key: key,
  };
  if (c.symbol_kind) s.symbol_kind = c.symbol_kind;
  return s;
}

export class ChunkVectors {
  readonly checksum: string;

  constructor(
    public embedder: Embedder,
    readonly store: VectorStore,
  ) {
    this.checksum = identityChecksum(embedder.identity());
  }

  /** Files whose indexed chunks are not exactly the stored ones, and stored files no longer indexed. */
  private changes(index: ChunkIndex): { changed: string[]; gone: string[] } {
    const indexed = index.idsByFile();
    const stored = this.store.idsByFile();
    const gone = [...stored.keys()].filter((f) => !indexed.has(f));
    const changed: string[] = [];
    for (const [file, ids] of indexed) {
      const have = stored.get(file) ?? new Set<string>();
      if (have.size !== ids.length || !ids.every((id) => have.has(id))) changed.push(file);
    }
    return { changed, gone };
  }

  /**
   * Embeds what is new and writes the changed files' chunks, STEP_CHUNKS at a time. `seed`: vectors
   * of this embedder made elsewhere, by the hash of the embedded text; a chunk found there is not embedded.
   */
  async update(index: ChunkIndex, head: string, signal?: AbortSignal, seed?: (key: string) => Float32Array | undefined): Promise<VectorUpdate> {
    const { changed, gone } = this.changes(index);
    const report: VectorUpdate = { embedded: 0, reused: 0, imported: 0, files: changed.length + gone.length };
    let files: string[] = gone;
    let chunks: Chunk[] = [];
    const flush = async () => {
      // embedding is CPU work (the local embedder) or a long wait: between steps the event loop runs,
      // so an interactive operation arriving meanwhile is not held behind the whole index
      await yieldToEventLoop();
      await this.write(files, chunks, report, signal, seed);
      files = [];
      chunks = [];
    };
    for (const file of changed) {
      files.push(file);
      chunks.push(...index.fileChunks(file));
      if (chunks.length >= STEP_CHUNKS) await flush();
    }
    if (files.length || chunks.length) await flush();
    this.store.setHead(head);
    return report;
  }

  private async write(
    files: string[],
    chunks: Chunk[],
    report: VectorUpdate,
    signal?: AbortSignal,
    seed?: (key: string) => Float32Array | undefined,
  ): Promise<void> {
    const known = new Map<string, Float32Array>();
    for (const f of files) for (const r of this.store.fileRecords(f)) known.set(r.chunk.embed_key, r.vector);
    const keys = chunks.map((c) => sha256(embeddingText(c)));
    const dim = this.embedder.identity().dim;
    let missing = [...new Set(keys.filter((k) => !known.has(k)))];
    let imported = 0;
    if (seed) {
      const before = missing.length;
      missing = missing.filter((k) => {
        const v = seed(k);
        // the same embedder's checksum says the same space; a vector that is still not of its shape is embedded again
        if (!v || v.length !== dim || !allFinite([v])) return true;
        known.set(k, v);
        return false;
      });
      imported = before - missing.length;
      report.imported += imported;
    }
    if (missing.length) {
      const text = new Map(chunks.map((c, i) => [keys[i]!, c] as const));
      const vecs = await this.embed(
        missing.map((k) => embeddingText(text.get(k)!)),
        signal,
      );
      missing.forEach((k, i) => known.set(k, vecs[i]!));
    }
    report.embedded += missing.length;
    report.reused += chunks.length - missing.length - imported;
    this.store.replace(
      files,
      chunks.map((c, i) => stored(c, keys[i]!)),
      keys.map((k) => known.get(k)!),
    );
  }

  /**
   * The embedder's vectors for `texts`, refused unless there is one per text, each of the index's
   * dimension and finite: whatever the embedder, nothing invalid reaches the store or a query.
   */
  async embed(texts: string[], signal?: AbortSignal): Promise<Float32Array[]> {
    const vecs = await this.embedder.embed(texts, signal);
    const dim = this.embedder.identity().dim;
    if (vecs.length !== texts.length || vecs.some((v) => v.length !== dim) || !allFinite(vecs)) {
      throw new LspgateError(
        'SERVER_FAILED',
        `the embedder answered ${vecs.length} vector(s) for ${texts.length} text(s), not each of dim ${dim} with finite values: nothing stored`,
        { reason: 'bad_vectors' },
      );
    }
    return vecs;
  }

  /**
   * The k nearest live chunks that pass `filter` (matched on the live chunk, whose commit may be
   * newer): in SQL when the chunks are in the store's database, else row by row here.
   */
  search(index: ChunkIndex, query: Float32Array, k: number, filter: ChunkFilter | undefined): VectorHit[] {
    if (index.fts && this.store.searchLive && index.fts.db === this.store.db) {
      const out: VectorHit[] = [];
      for (const h of this.store.searchLive(query, k, filter, index.indexedHead)) {
        const chunk = index.live(h.chunk.id);
        if (chunk) out.push({ chunk, distance: h.distance });
      }
      return out;
    }
    const match = chunkMatcher(filter);
    const accept = (s: StoredChunk) => {
      const c = index.live(s.id);
      return !!c && match(c);
    };
    return this.store.search(query, k, undefined, accept).map((h) => ({ chunk: index.live(h.chunk.id)!, distance: h.distance }));
  }
}
