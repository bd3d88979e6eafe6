/** A code chunk as the chunker would cut it: id and hash from the text, its lines from `start`. */
import { chunkId, contentSha256 } from '../../src/chunks/ids.js';
import type { Chunk } from '../../src/chunks/types.js';

export function symbolChunk(file: string, start: number, text: string, name: string, extra: Partial<Chunk> = {}): Chunk {
  const sha = contentSha256(text);
  const end = start + text.split('\n').length - 1;
  return {
    id: chunkId(file, start, end, sha),
    file,
    start_line: start,
    end_line: end,
    language: 'typescript',
    is_test: false,
    symbol_name: name,
    chunk_kind: 'symbol',
    commit_hash: '',
    content_sha256: sha,
    text,
    ...extra,
  };
}
