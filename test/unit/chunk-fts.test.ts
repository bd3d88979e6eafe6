/**
 * The chunks in SQLite and their FTS5 ranking (chunk-fts.ts), alone and under ChunkIndex: code names
 * split and stemmed on both sides, names weighing more than bodies, a file's chunks replaced in one
 * transaction (a SIGKILLed writer leaves the previous ones), the same stamp written once across
 * processes, files pruned, and the filter applied before the cut.
 */
import { spawnSync } from 'node:child_process';

import { describe, expect, it } from 'vitest';

import { ChunkFts, ftsQuery, ftsTerms } from '../../src/chunks/chunk-fts.js';
import { SqlChunkIndex } from '../../src/chunks/sql-chunk-index.js';
import type { Chunk } from '../../src/chunks/types.js';
import { symbolChunk, tempDatabases } from '../helpers/chunks.js';

const { tmp, db } = tempDatabases('lspgate-fts-');

const ids = (hits: { id: string }[], chunks: Chunk[]) => hits.map((h) => chunks.find((c) => c.id === h.id)?.symbol_name);

describe('ChunkFts', () => {
  it('indexes the code tokenizer terms: names split, stemmed, stop words dropped; the query alike', () => {
    expect(ftsTerms('parseAsync(snake_case_name)')).toBe('parseasync pars async snake_case_name snake case name');
    expect(ftsQuery('how does the parser handle it')).toBe('"parser"* OR "handl"*');
    expect(ftsQuery('the of a')).toBeUndefined();
    // FTS5 syntax in a question is data, not an operator
    expect(ftsQuery('NEAR("x" AND y) OR *')).toBe('"near"');
  });

  it('ranks a name match above a body mention, finds camelCase names by their words, and stems', () => {
    const fts = new ChunkFts(db(tmp()));
    const cs = [
      symbolChunk('src/a.ts', 1, 'function render() {\n  // parses the template before drawing\n}', 'render'),
      symbolChunk('src/b.ts', 1, 'function parseTemplate(t: string) {\n  return t;\n}', 'parseTemplate'),
      symbolChunk('src/c.ts', 1, 'const x = 1;', 'unrelated'),
    ];
    fts.replaceFile('src/a.ts', 'h1', [cs[0]!]);
    fts.replaceFile('src/b.ts', 'h1', [cs[1]!]);
    fts.replaceFile('src/c.ts', 'h1', [cs[2]!]);
    const all = () => true;
    expect(ids(fts.search('parsing a template', all, 10), cs)).toEqual(['parseTemplate', 'render']);
    expect(fts.search('parsing a template', all, 10)[0]!.bm25).toBeGreaterThan(0);
    expect(
      ids(
        fts.search('parse template', (c) => c.id !== cs[1]!.id, 1),
        cs,
      ),
    ).toEqual(['render']);
    expect(fts.search('the', all, 10)).toEqual([]);
    expect(fts.size).toBe(3);
    expect(fts.termCount()).toBeGreaterThan(5);
  });

  it('replaces a file whole, writes a stamp once, and prunes files no index holds', () => {
    const file = tmp();
    const fts = new ChunkFts(db(file));
    const v1 = [symbolChunk('a.ts', 1, 'function alpha() {}', 'alpha')];
    const v2 = [symbolChunk('a.ts', 1, 'function beta() {}', 'beta')];
    expect(fts.replaceFile('a.ts', 'h1', v1)).toBe(true);
    // a second process (or this one after a restart) finding the rows of the same bytes leaves them
    expect(new ChunkFts(db(file)).replaceFile('a.ts', 'h1', v1)).toBe(false);
    expect(fts.replaceFile('a.ts', 'h2', v2)).toBe(true);
    expect(fts.search('alpha', () => true, 5)).toEqual([]);
    expect(fts.search('beta', () => true, 5).map((h) => h.id)).toEqual([v2[0]!.id]);
    fts.replaceFile('gone.ts', 'h1', [symbolChunk('gone.ts', 1, 'function gamma() {}', 'gamma')]);
    expect(fts.prune(new Set(['a.ts']))).toBe(1);
    expect(fts.files()).toEqual(['a.ts']);
    expect(fts.search('gamma', () => true, 5)).toEqual([]);
    fts.removeFile('a.ts');
    expect(fts.size).toBe(0);
    // the FTS rows went with the chunk rows (the delete trigger)
    expect(db(file).prepare("SELECT count(*) AS n FROM chunks_fts WHERE chunks_fts MATCH 'beta'").get()!.n).toBe(0);
  });

  it('drops the chunks cut by another chunker version when opened, so files whose bytes did not change are cut again', () => {
    const file = tmp();
    const v1 = new ChunkFts(db(file), '1');
    v1.replaceFile('a.ts', 'h1', [symbolChunk('a.ts', 1, 'function alpha() {}', 'alpha')]);
    expect(new ChunkFts(db(file), '1').stamp('a.ts')).toBe('h1');
    const v2 = new ChunkFts(db(file), '2');
    expect(v2.rechunkedBecause).toMatch(/chunker 1, this is 2/);
    expect(v2.stamp('a.ts')).toBeUndefined();
    expect(v2.size).toBe(0);
    expect(v2.replaceFile('a.ts', 'h1', [symbolChunk('a.ts', 1, 'function alpha() {}', 'alpha')])).toBe(true);
  });

  it("names the catalog's files row of the chunk's path (seed 003's join: chunks to files)", () => {
    const h = db(tmp());
    h.exec("CREATE TABLE files (id INTEGER PRIMARY KEY, path TEXT NOT NULL UNIQUE); INSERT INTO files(id, path) VALUES (7, 'src/a.ts')");
    const fts = new ChunkFts(h);
    fts.replaceFile('src/a.ts', 'h1', [symbolChunk('src/a.ts', 1, 'function alpha() {}', 'alpha')]);
    fts.replaceFile('README.md', 'h1', [symbolChunk('README.md', 1, '# Intro', 'Intro', { chunk_kind: 'doc' })]);
    const rows = h.prepare('SELECT c.file AS file, f.path AS path FROM chunks c LEFT JOIN files f ON f.id = c.file_id ORDER BY c.file').all();
    expect(rows.map((r) => [r.file, r.path])).toEqual([
      ['README.md', null],
      ['src/a.ts', 'src/a.ts'],
    ]);
  });

  it('a process killed in the middle of replacing a file leaves its previous chunks, searchable', () => {
    const file = tmp();
    const fts = new ChunkFts(db(file));
    const old = symbolChunk('a.ts', 1, 'function alpha() {}', 'alpha');
    fts.replaceFile('a.ts', 'h1', [old]);
    const child = spawnSync(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        `import { DatabaseSync } from 'node:sqlite';
         const db = new DatabaseSync(${JSON.stringify(file)});
         db.exec("PRAGMA journal_mode=WAL; BEGIN IMMEDIATE; DELETE FROM chunks WHERE file = 'a.ts'; UPDATE chunk_files SET stamp = 'h2' WHERE file = 'a.ts';");
         process.kill(process.pid, 'SIGKILL');`,
      ],
      { encoding: 'utf8' },
    );
    expect(child.signal).toBe('SIGKILL');
    const again = new ChunkFts(db(file));
    expect(again.stamp('a.ts')).toBe('h1');
    expect(again.search('alpha', () => true, 5).map((h) => h.id)).toEqual([old.id]);
  });
});

describe('ChunkIndex over FTS5', () => {
  it('ranks through FTS5 with the chunk filter applied before the cut, and forgets removed files', () => {
    const index = new SqlChunkIndex(new ChunkFts(db(tmp())));
    index.replaceFile('src/cache.ts', 'h1', [symbolChunk('src/cache.ts', 1, 'function evictCache() { /* evict the oldest cache entry */ }', 'evictCache')]);
    index.replaceFile('lib/cache.py', 'h1', [symbolChunk('lib/cache.py', 1, 'def trim():\n    # cache: drop an entry', 'trim', { language: 'python' })]);
    expect(index.search('evict cache entry', undefined, 5).map((h) => h.chunk.symbol_name)).toEqual(['evictCache', 'trim']);
    // trim ranks second: a filter applied after a cut of 1 would find nothing
    expect(index.search('evict cache entry', { language: 'python' }, 1).map((h) => h.chunk.symbol_name)).toEqual(['trim']);
    index.removeFile('src/cache.ts');
    expect(index.search('evict cache entry', undefined, 5).map((h) => h.chunk.symbol_name)).toEqual(['trim']);
    expect(index.stats()).toMatchObject({ chunk_count: 1, bm25_terms: expect.any(Number) });
    expect(index.stats().bm25_terms).toBeGreaterThan(0);
  });
});
