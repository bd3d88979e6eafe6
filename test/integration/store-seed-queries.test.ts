/**
 * Seed 003's queries, run with the `sqlite3` shell against the workspace database a gateway wrote,
 * agree with the operations: the symbol count with the catalog, an FTS5 match on files_fts with
 * search_text, call_graph joined to symbols with find_callers.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';

import { beforeAll, describe, expect, it } from 'vitest';

import { indexDbPath } from '../../src/store/db.js';
import { type FixtureGateway, openFixture } from '../helpers/gateway.js';

const SQLITE3 = ['/usr/bin/sqlite3', '/usr/local/bin/sqlite3'].find((p) => existsSync(p));

let fx: FixtureGateway;
let db: string;

function sql<T>(query: string): T[] {
  const out = execFileSync(SQLITE3!, ['-json', '-readonly', db, query], { encoding: 'utf8' });
  return out.trim() === '' ? [] : (JSON.parse(out) as T[]);
}

describe.skipIf(!SQLITE3)('the workspace database answers seed 003’s queries', () => {
  beforeAll(async () => {
    fx = await openFixture('ts-app');
    const ws = await fx.gateway.openWorkspace(fx.root);
    await ws.catalog.build();
    db = indexDbPath(fx.cacheDir, ws.id);
  });

  it('select count(*) from symbols: the catalog’s symbols', async () => {
    const ws = await fx.gateway.openWorkspace(fx.root);
    const status = ws.catalog.status();
    expect(status.symbols).toBeGreaterThan(10);
    expect(sql<{ n: number }>('select count(*) as n from symbols')).toEqual([{ n: status.symbols }]);
    expect(sql<{ n: number }>('select count(*) as n from files')).toEqual([{ n: status.files }]);
    // a symbol search_symbols finds is a row with its id, name, kind and file
    const hits = (await fx.run('search_symbols', { query: 'formatName' })) as { results: { symbol_id: string; name: string; file: string; line: number }[] };
    const hit = hits.results.find((h) => h.name === 'formatName')!;
    expect(sql(`select s.name, f.path as file, s.line from symbols s join files f on f.id = s.file_id where s.symbol_id = '${hit.symbol_id}'`)).toEqual([
      { name: 'formatName', file: hit.file, line: hit.line },
    ]);
  });

  it('an FTS5 match on files_fts finds the files search_text finds among the cataloged ones', async () => {
    // search_text reads every text file (EXPECTED.md too); files holds the cataloged sources
    const text = (await fx.run('search_text', { query: 'formatName', case_sensitive: true, file_pattern: '**/*.ts', max_results: 200 })) as {
      matches: { file: string }[];
    };
    const expected = [...new Set(text.matches.map((m) => m.file))].sort();
    expect(expected.length).toBeGreaterThan(1);
    const rows = sql<{ path: string }>(
      "select f.path from files_fts join files f on f.id = files_fts.rowid where files_fts match 'formatName' order by f.path",
    );
    expect(rows.map((r) => r.path)).toEqual(expected);
    // path is searched too
    expect(sql<{ path: string }>("select path from files_fts where files_fts match 'path:strings'").map((r) => r.path)).toContain('src/util/strings.ts');
  });

  it('call_graph joined to symbols lists the callers find_callers found', async () => {
    const tree = (await fx.run('find_callers', { symbol: 'formatName', depth: 1 })) as {
      root: { symbol_id?: string; calls?: { symbol_id?: string; file: string; call_sites?: { line: number }[] }[] };
    };
    const callers = (tree.root.calls ?? []).filter((c) => c.symbol_id);
    expect(callers.length).toBeGreaterThan(0);
    const rows = sql<{ caller: string; file: string; line: number }>(
      `select c.symbol_id as caller, f.path as file, g.line from call_graph g
         join symbols c on c.id = g.caller_id join symbols t on t.id = g.callee_id join files f on f.id = g.file_id
        where t.symbol_id = '${tree.root.symbol_id}' order by 1, 3`,
    );
    const expected = callers
      .flatMap((c) => (c.call_sites ?? []).map((s) => ({ caller: c.symbol_id!, file: c.file, line: s.line })))
      .sort((a, b) => (a.caller < b.caller ? -1 : a.caller > b.caller ? 1 : a.line - b.line));
    expect(rows).toEqual(expected);
    expect(sql<{ name: string }>('select distinct t.name from call_graph g join symbols t on t.id = g.callee_id')).toEqual([{ name: 'formatName' }]);
  });
});
