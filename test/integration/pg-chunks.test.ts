/**
 * search_code from the published chunks (`--index`): a throwaway cluster (helpers/pg-cluster.ts), a
 * committed copy of fixtures/ts-app published by the built CLI, then search_code in other processes
 * on fresh caches with a read-only role. A word written into a published chunk of an unchanged file
 * is found (so that file's chunks came from PostgreSQL, not a local cut); a word written into a
 * published chunk of a file changed locally is not (the local file is cut here: the overlay); without
 * `--index` neither is. No password reaches any output. `publish` writes the call edges the
 * publisher's database recorded (find_callers asked there first) into `call_edges`, and each file's
 * idiom counts, from which a directory's convention chunks are summed where its files were taken.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { readerGrants } from '../../src/catalog/published/schema.js';
import { type PgCluster, pgSkip, publishableFixture, startCluster } from '../helpers/pg-cluster.js';
import { assertBuilt, removeDir, runCli, tempDir } from '../helpers/spawn.js';

const OWNER_PW = 'owner-Pw-3a9e';
const READER_PW = 'reader-Pw-8c1f';

let cluster: PgCluster;
let root: string;
const dirs: string[] = [];

/** One lspgate process, on a fresh cache unless given the publisher's. */
async function lspgate(args: string[], cacheDir = tempDir('lspgate-pgcache-')) {
  dirs.push(cacheDir);
  return runCli([...args, '--root', root], { cacheDir, env: { LSPGATE_LOG: 'info' } });
}

let callers: { symbol_id?: string; call_sites?: { line: number }[] }[] = [];

/** search_code (BM25) on a fresh cache: the symbols of the hits, and all the process wrote. */
async function searchCode(query: string, index?: string): Promise<{ symbols: string[]; output: string }> {
  const r = await lspgate(['search_code', '--query', query, '--mode', 'bm25', '--json', ...(index ? ['--index', index] : [])]);
  expect(r.code, r.stderr).toBe(0);
  const json = JSON.parse(r.stdout) as { hits: { chunk: { symbol_name?: string } }[] };
  return { symbols: json.hits.map((h) => h.chunk.symbol_name ?? ''), output: r.stdout + r.stderr };
}

const ownerUrl = () => cluster.url('lspgate_owner', OWNER_PW);
const readerUrl = () => cluster.url('lspgate_reader', READER_PW);

describe.skipIf(pgSkip)('search_code from the published chunks', () => {
  beforeAll(async () => {
    assertBuilt();
    cluster = await startCluster();
    root = await publishableFixture(cluster, 'lspgate-pgchunks-', { owner: OWNER_PW, reader: READER_PW });
    dirs.push(root);
    // the publisher's cache records the calls find_callers computed (call_graph); publish takes them
    const publisherCache = tempDir('lspgate-pgpublisher-');
    const tree = await lspgate(['find_callers', '--symbol', 'clamp', '--depth', '1', '--json'], publisherCache);
    expect(tree.code, tree.stderr).toBe(0);
    callers = ((JSON.parse(tree.stdout) as { root: { calls?: typeof callers } }).root.calls ?? []).filter((c) => c.symbol_id);
    const r = await lspgate(['publish', '--to', ownerUrl(), '--json'], publisherCache);
    expect(r.code, r.stderr).toBe(0);
    for (const stmt of readerGrants('lspgate_reader', 'lspgate_owner')) await cluster.admin(stmt);
    // words only the published rows hold: no local cut of these files would produce them
    await cluster.admin(`UPDATE lspgate.chunks SET text = text || E'\\n// zanzibarpublished' WHERE symbol = 'clamp'`);
    await cluster.admin(`UPDATE lspgate.chunks SET text = text || E'\\n// quixoteoverlaid' WHERE symbol = 'joinAll'`);
  }, 180_000);

  afterAll(async () => {
    await cluster?.stop();
    for (const d of dirs) removeDir(d);
  });

  it('takes the chunks of unchanged files from the index, and cuts a locally changed file here', async () => {
    const file = path.join(root, 'src/util/strings.ts');
    const before = readFileSync(file, 'utf8');
    writeFileSync(file, `${before}\nexport const added = 1;\n`);
    try {
      const published = await searchCode('zanzibarpublished', readerUrl());
      expect(published.symbols).toContain('clamp');
      expect(published.output).toMatch(/published index postgresql:\/\/lspgate_reader:\*\*\*@[^ ]+: the chunks of 10 files taken/);
      const overlaid = await searchCode('quixoteoverlaid', readerUrl());
      expect(overlaid.symbols).not.toContain('joinAll');
      expect((await searchCode('join every part with the separator', readerUrl())).symbols).toContain('joinAll');
      expect(published.output + overlaid.output).not.toContain(READER_PW);
    } finally {
      writeFileSync(file, before);
    }
    expect((await searchCode('zanzibarpublished')).symbols).not.toContain('clamp');
  }, 120_000);

  it('sums the convention chunks of directories whose files were all taken from the published idiom counts', async () => {
    const conventions = async (index?: string) => {
      const r = await lspgate(['search_code', '--query', '*', '--filter', '{"chunk_kinds":["convention"]}', '--json', ...(index ? ['--index', index] : [])]);
      expect(r.code, r.stderr).toBe(0);
      const json = JSON.parse(r.stdout) as { hits: { citation: { file: string }; chunk: { convention_stats?: unknown } }[] };
      return { hits: json.hits.map((h) => [h.citation.file, h.chunk.convention_stats]).sort(), output: r.stdout + r.stderr };
    };
    const local = await conventions();
    expect(local.hits.length).toBeGreaterThan(0);
    const taken = await conventions(readerUrl());
    // every file unchanged here: each one taken, none cut locally
    expect(taken.output).toMatch(/the chunks of 11 files taken/);
    expect(taken.hits).toEqual(local.hits);
  }, 120_000);

  it("publishes the call edges the publisher's database recorded", async () => {
    expect(callers.length).toBeGreaterThan(0);
    const rows = await cluster.admin(
      `SELECT e.caller_symbol_id AS caller, e.callee_symbol_id AS callee, e.line, f.path FROM lspgate.call_edges e
         JOIN lspgate.files f ON f.repo_id = e.repo_id AND f.id = e.file_id ORDER BY e.line`,
    );
    const edges = rows.rows as { caller: string; callee: string; line: number; path: string }[];
    expect(edges.map((e) => e.caller).sort()).toEqual(callers.map((c) => c.symbol_id).sort());
    expect(edges.every((e) => e.callee === 'src/util/math.ts::clamp#function')).toBe(true);
    expect(edges.map((e) => e.line)).toEqual(callers.flatMap((c) => (c.call_sites ?? []).map((x) => x.line)).sort((a, b) => a - b));
  });
});
