/**
 * The embedder contract (any model behind `embed`, local or HTTP). The identity names the vector space; its checksum is what an index
 * records so vectors from one space are never compared with a query from another.
 */
import { sha256 } from '../util/hash.js';

export interface EmbeddingIdentity {
  provider: string;
  model: string;
  dim: number;
  /** 'cls' | 'mean' | 'last_token' | 'sum'; '' when the backend does not say. */
  pooling: string;
  /** 'l2' | 'none'; '' when unknown. */
  normalize: string;
}

export interface Embedder {
  identity(): EmbeddingIdentity;
  /** The model's input limit in tokens; longer text is cut at the tail (the signature stays at the head). */
  readonly maxInputTokens: number;
  embed(batch: string[], signal?: AbortSignal): Promise<Float32Array[]>;
}

/** Stable across processes: any difference in provider, model, dim, pooling or normalisation changes it. */
export function identityChecksum(id: EmbeddingIdentity): string {
  return sha256(JSON.stringify([id.provider, id.model, id.dim, id.pooling, id.normalize]));
}
