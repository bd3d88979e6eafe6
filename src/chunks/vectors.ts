/**
 * Chunk vectors in memory, keyed by chunk id (a chunk's id changes with its content, so a cached
 * vector is never out of date), searched by exact cosine over the filtered chunks: a flat scan of a
 * few thousand 512-float vectors costs about a millisecond, below what an ANN index would save.
 * The vectors belong to one embedder identity; a different one starts an empty store.
 */
import type { ChunkIndex } from './chunk-index.js';
import { identityChecksum, type Embedder } from './embedder.js';
import { chunkMatcher } from './filter.js';
import type { Chunk, ChunkFilter } from './types.js';

const EMBED_CHARS = 4000;

export interface VectorHit {
  chunk: Chunk;
  distance: number;
}

/** What is embedded: name, signature and docstring at the head, so a cut keeps them. */
export function embeddingText(c: Chunk): string {
  return [c.symbol_name ?? '', c.signature ?? '', c.docstring ?? '', c.file, c.text].join('\n').slice(0, EMBED_CHARS);
}

/** Unit length, so cosine is a dot product (HTTP endpoints need not normalise). */
export function unit(v: Float32Array): Float32Array {
  let n = 0;
  for (const x of v) n += x * x;
  n = Math.sqrt(n);
  return n > 0 && Math.abs(n - 1) > 1e-6 ? v.map((x) => x / n) : v;
}

function dot(a: Float32Array, b: Float32Array): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i]! * b[i]!;
  return s;
}

export class ChunkVectors {
  private readonly vectors = new Map<string, Float32Array>();
  readonly checksum: string;

  constructor(readonly embedder: Embedder) {
    this.checksum = identityChecksum(embedder.identity());
  }

  /** Embeds the chunks that have no vector yet and forgets those no longer indexed. */
  async update(index: ChunkIndex, signal?: AbortSignal): Promise<number> {
    const live = new Set<string>();
    const missing: Chunk[] = [];
    for (const file of index.indexedFiles()) {
      for (const c of index.fileChunks(file)) {
        live.add(c.id);
        if (!this.vectors.has(c.id)) missing.push(c);
      }
    }
    for (const id of this.vectors.keys()) if (!live.has(id)) this.vectors.delete(id);
    const BATCH = 64;
    for (let i = 0; i < missing.length; i += BATCH) {
      const batch = missing.slice(i, i + BATCH);
      const vecs = await this.embedder.embed(batch.map(embeddingText), signal);
      batch.forEach((c, j) => this.vectors.set(c.id, unit(vecs[j]!)));
    }
    return missing.length;
  }

  get size(): number {
    return this.vectors.size;
  }

  search(index: ChunkIndex, query: Float32Array, k: number, filter: ChunkFilter | undefined): VectorHit[] {
    const match = chunkMatcher(filter);
    const q = unit(query);
    const hits: VectorHit[] = [];
    for (const file of index.indexedFiles()) {
      for (const c of index.fileChunks(file)) {
        const v = this.vectors.get(c.id);
        if (v && match(c)) hits.push({ chunk: c, distance: 1 - dot(q, v) });
      }
    }
    return hits.sort((a, b) => a.distance - b.distance).slice(0, k);
  }
}
