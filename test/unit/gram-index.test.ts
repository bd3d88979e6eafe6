import { describe, expect, it } from 'vitest';

import { GramIndex } from '../../src/catalog/gram-index.js';

/** Deterministic pseudo-random words over a small alphabet, so that grams repeat across documents. */
function corpus(documents: number, per: number): string[] {
  let seed = 7;
  const next = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0);
  const texts: string[] = [];
  for (let i = 0; i < documents * per; i++) {
    let t = '';
    const len = 1 + (next() % 14);
    for (let j = 0; j < len; j++) t += 'abcdefgh_$'[next() % 10];
    texts.push(t);
  }
  return texts;
}

describe('GramIndex', () => {
  // 3,000 documents make delta gaps above 127, so multi-byte varints are decoded and intersected.
  const per = 2;
  const texts = corpus(3000, per);
  const index = new GramIndex(texts, per);
  const holding = (word: string) => {
    const docs: number[] = [];
    for (let d = 0; d < texts.length / per; d++) if (texts.slice(d * per, d * per + per).some((t) => t.includes(word))) docs.push(d);
    return docs;
  };

  it('candidates are ascending and a superset of the documents holding the word', () => {
    for (const word of ['ab', 'abc', 'h_$', 'cafe', 'dead', 'gh', '$$', 'bbbbb']) {
      const got = [...index.candidates(word)!];
      expect([...got].sort((a, b) => a - b)).toEqual(got);
      const set = new Set(got);
      for (const d of holding(word)) expect(set.has(d)).toBe(true);
    }
  });

  it('a word rarer than its buckets narrows to few candidates; a one-unit word is not filtered', () => {
    expect(index.candidates('a')).toBeUndefined();
    const word = texts.find((t) => t.length >= 12)!;
    expect(index.candidates(word)!.length).toBeLessThan(50);
  });
});
