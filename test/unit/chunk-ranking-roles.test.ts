/**
 * search_code ranks like a developer: the implementation before tests unless the query asks for
 * tests, and one hit per symbol (the pieces of a split function fold into the best one). A question
 * about a validation answered with one test callback three times (its split pieces) and the
 * implementation 9th.
 */
import { describe, expect, it } from 'vitest';

import { HeapChunkIndex } from '../../src/chunks/chunk-index.js';
import type { Chunk, ChunkKind } from '../../src/chunks/types.js';
import { rankChunks } from '../../src/service/search/chunk-ranking.js';
import { symbolChunk } from '../helpers/chunks.js';

function chunk(file: string, start: number, text: string, name: string, kind: ChunkKind, isTest: boolean): Chunk {
  return symbolChunk(file, start, text, name, { is_test: isTest, symbol_id: `${file}::${name}#function`, chunk_kind: kind });
}

const IMPL = 'export function checkAddress(value: string): boolean {\n  return /^[^@]+@[^@]+$/.test(value);\n}';
const PIECES = [
  "it('validates an email address', () => {\n  expect(checkAddress('a@b')).toBe(true); // email validated\n",
  "  expect(checkAddress('nope')).toBe(false); // email not validated\n  expect(checkAddress('')).toBe(false); // empty email\n",
  "  expect(checkAddress('a@b@c')).toBe(false); // email with two @ is not validated\n});",
];

function index(): HeapChunkIndex {
  const ix = new HeapChunkIndex();
  ix.replaceFile('src/address.ts', 'h1', [chunk('src/address.ts', 1, IMPL, 'checkAddress', 'symbol', false)]);
  ix.replaceFile(
    'test/address.test.ts',
    'h2',
    PIECES.map((t, i) => chunk('test/address.test.ts', 1 + i * 3, t, 'validates an email address', 'function_split', true)),
  );
  return ix;
}

describe('search_code ranking: implementation first, one hit per symbol', () => {
  it('a question about the validation: the implementation first, the split test once', async () => {
    const hits = await rankChunks(index(), 'how is an email address validated', undefined, 10, 'bm25');
    expect(hits.map((h) => `${h.chunk.file}:${h.chunk.start_line}`)).toEqual(['src/address.ts:1', expect.stringMatching(/^test\/address\.test\.ts:/)]);
  });

  it('a question about tests keeps the tests where they rank', async () => {
    const hits = await rankChunks(index(), 'tests of email address validated', undefined, 10, 'bm25');
    expect(hits[0]!.chunk.file).toBe('test/address.test.ts');
    expect(hits.filter((h) => h.chunk.file === 'test/address.test.ts')).toHaveLength(1);
  });

  it('the folded hit ranks by its best piece and cites the other pieces that matched', async () => {
    // zod's "URL.canParse" question: the test it named was in the 2nd piece, and the fold kept only the 1st
    const [hit] = await rankChunks(index(), 'tests of email address validated', undefined, 10, 'bm25');
    const all = [hit!.chunk, ...(hit!.pieces ?? [])].map((c) => c.start_line).sort();
    expect(all).toEqual([1, 4, 7]);
    expect(hit!.pieces!.map((c) => c.start_line)).not.toContain(hit!.chunk.start_line);
  });
});
