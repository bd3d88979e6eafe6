/**
 * Reciprocal-rank fusion against values computed by hand from the formula, and the model-free
 * embedder: deterministic, unit length, and closer for texts that share identifier pieces.
 */
import { describe, expect, it } from 'vitest';

import { identityChecksum } from '../../src/chunks/embedder.js';
import { embedText, LocalHashEmbedder } from '../../src/chunks/local-embedder.js';
import { reciprocalRankFusion } from '../../src/chunks/rrf.js';

describe('reciprocal-rank fusion', () => {
  it('sums 1/(k + rank) over the lists', () => {
    const fused = reciprocalRankFusion([
      ['a', 'b', 'c'],
      ['c', 'a'],
    ]);
    const score = Object.fromEntries(fused.map((f) => [f.id, f.score]));
    expect(score.a).toBeCloseTo(1 / 61 + 1 / 62, 12);
    expect(score.c).toBeCloseTo(1 / 63 + 1 / 61, 12);
    expect(score.b).toBeCloseTo(1 / 62, 12);
    expect(fused.map((f) => f.id)).toEqual(['a', 'c', 'b']);
  });
  it('takes k', () => {
    expect(reciprocalRankFusion([['x']], 0)[0]!.score).toBe(1);
  });
});

describe('local hashed-trigram embedder', () => {
  const cos = (a: Float32Array, b: Float32Array) => a.reduce((s, x, i) => s + x * b[i]!, 0);
  it('is deterministic and L2-normalised', async () => {
    const [a, b] = await new LocalHashEmbedder().embed(['export function slugify(input: string)', 'export function slugify(input: string)']);
    expect([...a!]).toEqual([...b!]);
    expect(cos(a!, a!)).toBeCloseTo(1, 5);
  });
  it('puts a word near the identifiers containing it', () => {
    const q = embedText('url slug');
    expect(cos(q, embedText('function slugify(input) { return input.toLowerCase() }'))).toBeGreaterThan(
      cos(q, embedText('function floatSafeRemainder(val, step) { return val % step }')),
    );
  });
  it('a different identity has a different checksum', () => {
    const id = new LocalHashEmbedder().identity();
    expect(identityChecksum(id)).toBe(identityChecksum({ ...id }));
    expect(identityChecksum({ ...id, dim: 256 })).not.toBe(identityChecksum(id));
    expect(identityChecksum({ ...id, normalize: 'none' })).not.toBe(identityChecksum(id));
  });
});
