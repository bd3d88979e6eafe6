/**
 * ChunkIndex re-indexes a changed file by content: chunks that only moved keep their BM25 document
 * (re-pointed at their new lines), only changed text is tokenised again, removed text stops
 * matching, and the replaced chunks stay reachable for verify_citation.
 */
import { describe, expect, it } from 'vitest';

import { HeapChunkIndex } from '../../src/chunks/chunk-index.js';
import { symbolChunk } from '../helpers/chunks.js';

const ALPHA = 'function parseAlpha(input) {\n  return input.trim();\n}';
const BETA = 'function renderBeta(node) {\n  return node.html;\n}';
const DUP = 'function noop() {}';

describe('ChunkIndex incremental re-index', () => {
  it('re-tokenises only changed chunks; moved ones answer at their new lines', () => {
    const index = new HeapChunkIndex();
    const first = [
      symbolChunk('a.ts', 1, ALPHA, 'parseAlpha'),
      symbolChunk('a.ts', 5, BETA, 'renderBeta'),
      symbolChunk('a.ts', 9, DUP, 'noop'),
      symbolChunk('a.ts', 10, DUP, 'noop'),
    ];
    expect(index.replaceFile('a.ts', 'h1', first)).toEqual({ added: 4, kept: 0, discarded: 0 });
    // Two lines inserted at the top: everything moves by 2; beta's body changes.
    const beta2 = BETA.replace('node.html', 'node.outerMarkup');
    const second = [
      symbolChunk('a.ts', 3, ALPHA, 'parseAlpha'),
      symbolChunk('a.ts', 7, beta2, 'renderBeta'),
      symbolChunk('a.ts', 11, DUP, 'noop'),
      symbolChunk('a.ts', 12, DUP, 'noop'),
    ];
    expect(index.replaceFile('a.ts', 'h2', second)).toEqual({ added: 1, kept: 3, discarded: 1 });
    expect(index.chunkCount).toBe(4);
    const alpha = index.search('parse alpha input', undefined, 5)[0]!.chunk;
    expect(alpha).toMatchObject({ start_line: 3, end_line: 5, id: second[0]!.id });
    expect(index.search('outerMarkup', undefined, 5).map((h) => h.chunk.start_line)).toEqual([7]);
    expect(index.search('html', undefined, 5)).toEqual([]);
    expect(
      index
        .search('noop', undefined, 5)
        .map((h) => h.chunk.start_line)
        .sort((a, b) => a - b),
    ).toEqual([11, 12]);
    // The replaced chunks are retired, not forgotten; the live ones are the new ones.
    expect(index.get(first[0]!.id)?.start_line).toBe(1);
    expect(index.live(first[0]!.id)).toBeUndefined();
    expect(index.live(second[0]!.id)?.start_line).toBe(3);
    // Unchanged input: nothing tokenised.
    expect(index.replaceFile('a.ts', 'h2', second)).toEqual({ added: 0, kept: 4, discarded: 0 });
    index.removeFile('a.ts');
    expect(index.search('parse alpha', undefined, 5)).toEqual([]);
    expect(index.chunkCount).toBe(0);
  });
});
