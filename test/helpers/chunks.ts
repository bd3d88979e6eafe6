/** A code chunk as the chunker would cut it: id and hash from the text, its lines from `start`. */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { afterEach } from 'vitest';

import { chunkId, contentSha256 } from '../../src/chunks/ids.js';
import { openSqlite, type SqlDb } from '../../src/chunks/sqlite-handle.js';
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

/**
 * Database files of one test file: `tmp()` names index.db in a new temp folder, `db(file)` opens it;
 * after each test every handle still open is closed and the folders are removed.
 */
export function tempDatabases(prefix: string): { tmp(): string; db(file: string): SqlDb } {
  const dirs: string[] = [];
  const dbs: SqlDb[] = [];
  afterEach(() => {
    for (const h of dbs.splice(0)) if (h.isOpen) h.close();
    for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  });
  return {
    tmp() {
      const d = mkdtempSync(path.join(os.tmpdir(), prefix));
      dirs.push(d);
      return path.join(d, 'index.db');
    },
    db(file) {
      const h = openSqlite(file);
      dbs.push(h);
      return h;
    },
  };
}
