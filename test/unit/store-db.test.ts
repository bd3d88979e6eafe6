import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { afterEach, describe, expect, it } from 'vitest';

import { indexDbPath, openIndexDb } from '../../src/store/db.js';
import { MIGRATIONS, SCHEMA_VERSION } from '../../src/store/schema.js';
import {
  addSymbolSearchKeys,
  dropSymbolTextsInsertTrigger,
  FTS_AUTOMERGE,
  ftsLeaner,
  ftsWithoutPositions,
  writeSymbolTexts,
} from '../../src/store/symbol-texts.js';
import { trigramsQuery } from '../../src/store/symbol-texts-reader.js';
import { catalogSymbol } from '../helpers/catalog-symbols.js';

const dirs: string[] = [];
function cacheDir(): string {
  const d = mkdtempSync(path.join(tmpdir(), 'lspgate-store-'));
  dirs.push(d);
  return d;
}
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe('the workspace database', () => {
  it('is created private, in WAL mode with foreign keys, at the schema version', () => {
    const cache = cacheDir();
    const idx = openIndexDb(cache, 'ws1');
    expect(idx.file).toBe(indexDbPath(cache, 'ws1'));
    expect(idx.rebuilt).toBeUndefined();
    expect(statSync(idx.file).mode & 0o777).toBe(0o600);
    expect(statSync(path.dirname(idx.file)).mode & 0o777).toBe(0o700);
    expect(idx.db.prepare('PRAGMA journal_mode').get()).toEqual({ journal_mode: 'wal' });
    expect(idx.db.prepare('PRAGMA foreign_keys').get()).toEqual({ foreign_keys: 1 });
    expect(idx.meta('schema_version')).toBe(String(SCHEMA_VERSION));
    idx.db.prepare("INSERT INTO files(path, content) VALUES ('a.ts', 'x')").run();
    expect(statSync(`${idx.file}-wal`).mode & 0o777).toBe(0o600);
    idx.close();
  });

  it('keeps files_fts in step with files, and drops a file’s symbols and edges with it', () => {
    const idx = openIndexDb(cacheDir(), 'ws');
    const { db } = idx;
    db.prepare("INSERT INTO files(id, path, content) VALUES (1, 'src/a.ts', 'export function alphaBeta() {}')").run();
    db.prepare("INSERT INTO symbols(id, name, kind, file_id, symbol_id) VALUES (1, 'alphaBeta', 'function', 1, 'src/a.ts::alphaBeta#function')").run();
    db.prepare('INSERT INTO call_graph(caller_id, callee_id, file_id, line) VALUES (1, 1, 1, 1)').run();
    const match = db.prepare('SELECT f.path FROM files_fts JOIN files f ON f.id = files_fts.rowid WHERE files_fts MATCH ?');
    expect(match.all('alphaBeta')).toEqual([{ path: 'src/a.ts' }]);
    db.prepare("UPDATE files SET content = 'gammaDelta' WHERE id = 1").run();
    expect(match.all('alphaBeta')).toEqual([]);
    expect(match.all('gammaDelta')).toEqual([{ path: 'src/a.ts' }]);
    db.prepare('DELETE FROM files WHERE id = 1').run();
    expect(match.all('gammaDelta')).toEqual([]);
    expect(db.prepare('SELECT count(*) AS n FROM symbols').get()).toEqual({ n: 0 });
    expect(db.prepare('SELECT count(*) AS n FROM call_graph').get()).toEqual({ n: 0 });
    idx.close();
  });

  it('writes each symbol text into the FTS index once, also in a database that had the insert trigger', () => {
    const cache = cacheDir();
    const first = openIndexDb(cache, 'ws');
    // a database of the version before: its FTS rows were written by a trigger
    first.db.exec(`CREATE TRIGGER symbol_texts_insert AFTER INSERT ON symbol_texts BEGIN
  INSERT INTO symbol_texts_fts(rowid, lname, lqn, lsig, lsum, ldoc) VALUES (new.id, new.lname, new.lqn, new.lsig, new.lsum, new.ldoc);
END;`);
    first.setMeta('schema_version', String(MIGRATIONS.indexOf(dropSymbolTextsInsertTrigger)));
    first.close();
    const idx = openIndexDb(cache, 'ws');
    expect(idx.rebuilt).toBeUndefined();
    expect(idx.db.prepare("SELECT name FROM sqlite_master WHERE type = 'trigger' AND name = 'symbol_texts_insert'").all()).toEqual([]);
    idx.db.prepare("INSERT INTO files(id, path) VALUES (1, 'src/a.ts')").run();
    idx.transaction(() => writeSymbolTexts(idx.db, 1, [catalogSymbol('src/a.ts', 'typescript', 'alphaBeta', 'function', 1, 1)]));
    const hits = idx.db.prepare('SELECT count(*) AS n FROM symbol_texts_fts WHERE symbol_texts_fts MATCH ?');
    expect(hits.get(trigramsQuery('alphabeta'))).toEqual({ n: 1 });
    // the delete trigger takes the FTS row with its file's
    idx.db.prepare('DELETE FROM files WHERE id = 1').run();
    expect(hits.get(trigramsQuery('alphabeta'))).toEqual({ n: 0 });
    idx.close();
  });

  it('rebuilds the FTS index of symbol texts without positions, from the rows a database holds', () => {
    const cache = cacheDir();
    const first = openIndexDb(cache, 'ws');
    // a database of the version before: the index kept positions (phrase queries)
    first.db.exec(`DROP TABLE symbol_texts_fts;
CREATE VIRTUAL TABLE symbol_texts_fts USING fts5(lname, lqn, lsig, lsum, ldoc, content=symbol_texts, content_rowid=id, tokenize='trigram case_sensitive 1');`);
    first.db.prepare("INSERT INTO files(id, path) VALUES (1, 'src/a.ts')").run();
    first.transaction(() => writeSymbolTexts(first.db, 1, [catalogSymbol('src/a.ts', 'typescript', 'alphaBeta', 'function', 1, 1)]));
    expect(first.db.prepare('SELECT count(*) AS n FROM symbol_texts_fts WHERE symbol_texts_fts MATCH ?').get('"phabet"')).toEqual({ n: 1 });
    first.setMeta('schema_version', String(MIGRATIONS.indexOf(ftsWithoutPositions)));
    first.close();
    const idx = openIndexDb(cache, 'ws');
    expect(idx.rebuilt).toBeUndefined();
    const { sql } = idx.db.prepare("SELECT sql FROM sqlite_master WHERE name = 'symbol_texts_fts'").get() as { sql: string };
    expect(sql).toContain('detail=none');
    const hits = idx.db.prepare('SELECT count(*) AS n FROM symbol_texts_fts WHERE symbol_texts_fts MATCH ?');
    // the stored row is in the rebuilt index, a candidate of every word whose trigrams it holds (a superset:
    // 'betalpha' is not in it, its trigrams are; the search scores candidates on their texts)
    expect(hits.get(trigramsQuery('phabet'))).toEqual({ n: 1 });
    expect(hits.get(trigramsQuery('betalpha'))).toEqual({ n: 1 });
    expect(hits.get(trigramsQuery('gamma'))).toEqual({ n: 0 });
    expect(() => hits.get('"phabet"')).toThrow(/phrase queries are not supported/);
    idx.close();
  });

  it('rebuilds the FTS index of symbol texts without column sizes, merging wider, from the rows a database holds', () => {
    const cache = cacheDir();
    const first = openIndexDb(cache, 'ws');
    // a database of the version before: column sizes kept, FTS5's default merging
    first.db.exec(`DROP TABLE symbol_texts_fts;
CREATE VIRTUAL TABLE symbol_texts_fts USING fts5(lname, lqn, lsig, lsum, ldoc, content=symbol_texts, content_rowid=id, tokenize='trigram case_sensitive 1', detail=none);`);
    first.db.prepare("INSERT INTO files(id, path) VALUES (1, 'src/a.ts'), (2, 'src/b.ts')").run();
    first.transaction(() => {
      writeSymbolTexts(first.db, 1, [catalogSymbol('src/a.ts', 'typescript', 'alphaBeta', 'function', 1, 1)]);
      writeSymbolTexts(first.db, 2, [catalogSymbol('src/b.ts', 'typescript', 'gammaDelta', 'function', 1, 1)]);
    });
    expect((first.db.prepare('SELECT count(*) AS n FROM symbol_texts_fts_docsize').get() as { n: number }).n).toBe(2);
    first.setMeta('schema_version', String(MIGRATIONS.indexOf(ftsLeaner)));
    first.close();
    const idx = openIndexDb(cache, 'ws');
    expect(idx.rebuilt).toBeUndefined();
    const { sql } = idx.db.prepare("SELECT sql FROM sqlite_master WHERE name = 'symbol_texts_fts'").get() as { sql: string };
    expect(sql).toContain('detail=none');
    expect(sql).toContain('columnsize=0');
    expect(idx.db.prepare("SELECT name FROM sqlite_master WHERE name = 'symbol_texts_fts_docsize'").all()).toEqual([]);
    expect(idx.db.prepare("SELECT v FROM symbol_texts_fts_config WHERE k = 'automerge'").get()).toEqual({ v: FTS_AUTOMERGE });
    const hits = idx.db.prepare('SELECT rowid AS id FROM symbol_texts_fts WHERE symbol_texts_fts MATCH ?');
    const idOf = (fileId: number) => (idx.db.prepare('SELECT id FROM symbol_texts WHERE file_id = ?').get(fileId) as { id: number }).id;
    // the stored rows are in the rebuilt index; a file rewritten and one removed leave it in step
    expect(hits.all(trigramsQuery('alphabeta'))).toEqual([{ id: idOf(1) }]);
    expect(hits.all(trigramsQuery('gammadelta'))).toEqual([{ id: idOf(2) }]);
    idx.transaction(() => writeSymbolTexts(idx.db, 1, [catalogSymbol('src/a.ts', 'typescript', 'epsilonZeta', 'function', 1, 1)]));
    idx.db.prepare('DELETE FROM files WHERE id = 2').run();
    expect(hits.all(trigramsQuery('alphabeta'))).toEqual([]);
    expect(hits.all(trigramsQuery('gammadelta'))).toEqual([]);
    expect(hits.all(trigramsQuery('epsilonzeta'))).toEqual([{ id: idOf(1) }]);
    idx.db.exec("INSERT INTO symbol_texts_fts(symbol_texts_fts, rank) VALUES ('integrity-check', 1)");
    idx.close();
  });

  it('adds the search keys to symbol_texts once (a database migrated again keeps its rows), pkey NULL where written without keys', () => {
    const cache = cacheDir();
    const first = openIndexDb(cache, 'ws');
    first.db.prepare("INSERT INTO files(id, path) VALUES (1, 'src/a.ts')").run();
    first.transaction(() => writeSymbolTexts(first.db, 1, [catalogSymbol('src/a.ts', 'typescript', 'alphaBeta', 'function', 3, 1)], [7]));
    first.setMeta('schema_version', String(MIGRATIONS.indexOf(addSymbolSearchKeys)));
    first.close();
    const idx = openIndexDb(cache, 'ws');
    expect(idx.rebuilt).toBeUndefined();
    expect(idx.db.prepare('SELECT name, kind, line, pkey FROM symbol_texts').all()).toEqual([{ name: 'alphaBeta', kind: 'function', line: 3, pkey: 7 }]);
    idx.transaction(() => writeSymbolTexts(idx.db, 1, [catalogSymbol('src/a.ts', 'typescript', 'gamma', 'class', 5, 1)]));
    expect(idx.db.prepare('SELECT name, kind, line, pkey FROM symbol_texts').all()).toEqual([{ name: 'gamma', kind: 'class', line: 5, pkey: null }]);
    idx.close();
  });

  it('rolls a transaction back when it throws, nested ones to their savepoint', () => {
    const idx = openIndexDb(cacheDir(), 'ws');
    const count = () => (idx.db.prepare('SELECT count(*) AS n FROM files').get() as { n: number }).n;
    expect(() =>
      idx.transaction(() => {
        idx.db.prepare("INSERT INTO files(path) VALUES ('a')").run();
        throw new Error('half way');
      }),
    ).toThrow('half way');
    expect(count()).toBe(0);
    idx.transaction(() => {
      idx.db.prepare("INSERT INTO files(path) VALUES ('b')").run();
      expect(() =>
        idx.transaction(() => {
          idx.db.prepare("INSERT INTO files(path) VALUES ('c')").run();
          throw new Error('inner');
        }),
      ).toThrow('inner');
    });
    expect(idx.db.prepare('SELECT path FROM files').all()).toEqual([{ path: 'b' }]);
    idx.close();
  });

  it('rebuilds a database at a schema version it does not know, and says so', () => {
    const cache = cacheDir();
    const first = openIndexDb(cache, 'ws');
    first.db.prepare("INSERT INTO files(path) VALUES ('kept?')").run();
    first.setMeta('schema_version', String(SCHEMA_VERSION + 1));
    first.close();
    const again = openIndexDb(cache, 'ws');
    expect(again.rebuilt).toMatch(new RegExp(`schema version ${SCHEMA_VERSION + 1}, which this lspgate \\(${SCHEMA_VERSION}\\) does not know: it was rebuilt`));
    expect(again.db.prepare('SELECT count(*) AS n FROM files').get()).toEqual({ n: 0 });
    expect(again.meta('schema_version')).toBe(String(SCHEMA_VERSION));
    again.close();
    expect(openIndexDb(cache, 'ws').rebuilt).toBeUndefined();
  });

  it('rebuilds a file that is not a database', () => {
    const cache = cacheDir();
    openIndexDb(cache, 'ws').close();
    writeFileSync(indexDbPath(cache, 'ws'), 'not a database, just text '.repeat(200));
    rmSync(`${indexDbPath(cache, 'ws')}-wal`, { force: true });
    rmSync(`${indexDbPath(cache, 'ws')}-shm`, { force: true });
    const idx = openIndexDb(cache, 'ws');
    expect(idx.rebuilt).toMatch(/could not be read .*it was rebuilt/);
    expect(idx.meta('schema_version')).toBe(String(SCHEMA_VERSION));
    idx.close();
  });
});
