/**
 * A deterministic embedder that needs no model (none ships on npm and nothing downloads here):
 * the feature-hashed bag of a text's code terms (the search tokenizer's, stemmed) and
 * of their character trigrams, signed to cancel collisions on average, L2-normalised. Trigrams let
 * `slug` meet `slugify` and `hex` meet `hexToUint8Array`, which BM25's whole terms miss; it is
 * lexical, not semantic, and says so in its identity.
 */
import type { Embedder, EmbeddingIdentity } from './embedder.js';
import { normalizeTerm, tokenizeCode } from './tokenize.js';

const DIM = 512;
const TRIGRAM_WEIGHT = 0.5;

/** FNV-1a, 32 bits: fast and well spread for short strings. */
function fnv1a(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

function addFeature(v: Float32Array, feature: string, weight: number): void {
  const h = fnv1a(feature);
  v[h % DIM]! += h & 0x80000000 ? -weight : weight;
}

export function embedText(text: string): Float32Array {
  const v = new Float32Array(DIM);
  for (const tok of tokenizeCode(text)) {
    const term = normalizeTerm(tok);
    if (!term) continue;
    addFeature(v, `w:${term}`, 1);
    const padded = `<${tok.toLowerCase()}>`;
    for (let i = 0; i + 3 <= padded.length; i++) addFeature(v, `c:${padded.slice(i, i + 3)}`, TRIGRAM_WEIGHT);
  }
  let norm = 0;
  for (const x of v) norm += x * x;
  norm = Math.sqrt(norm);
  if (norm > 0) for (let i = 0; i < DIM; i++) v[i]! /= norm;
  return v;
}

export class LocalHashEmbedder implements Embedder {
  readonly maxInputTokens = 8192;
  identity(): EmbeddingIdentity {
    return { provider: 'lspgate-local', model: 'hashed-char-trigrams-v1', dim: DIM, pooling: 'sum', normalize: 'l2' };
  }
  embed(batch: string[]): Promise<Float32Array[]> {
    return Promise.resolve(batch.map(embedText));
  }
}
