/**
 * The PostgreSQL round trip: a throwaway cluster (helpers/pg-cluster.ts), a
 * committed copy of fixtures/ts-app published by the built CLI with an owner role, and answers from
 * `--index` in other processes with a read-only role: with the files unchanged (a symbol that exists
 * only in the published rows is found, so the entries came from PostgreSQL), and with one file
 * changed (its new symbol is found, its removed one is not, the other files still answer from the
 * index). The read-only role cannot write; an unreachable database is INDEX_UNAVAILABLE in the
 * answer's warnings while the local catalog answers; no password reaches any output.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { readerGrants } from '../../src/catalog/published/schema.js';
import { connectStdio } from '../helpers/mcp-client.js';
import { type PgCluster, pgSkip, publishableFixture, startCluster } from '../helpers/pg-cluster.js';
import { assertBuilt, CLI, removeDir, runCli, tempDir } from '../helpers/spawn.js';

const OWNER_PW = 'owner-Pw-71c2';
const READER_PW = 'reader-Pw-5d0e';
const GIT_ID = ['-c', 'user.name=lspgate-test', '-c', 'user.email=test@lspgate.invalid', '-c', 'commit.gpgsign=false'];

let cluster: PgCluster;
let root: string;
const dirs: string[] = [];

function git(...args: string[]): string {
  return execFileSync('git', [...GIT_ID, ...args], { cwd: root, stdio: 'pipe' }).toString();
}

/** One lspgate process on its own fresh cache (nothing cataloged before it). */
async function lspgate(args: string[], env: Record<string, string> = {}) {
  const cacheDir = tempDir('lspgate-pgcache-');
  dirs.push(cacheDir);
  return runCli([...args, '--root', root], { cacheDir, env: { LSPGATE_LOG: 'info', ...env } });
}

async function search(query: string, index: string): Promise<{ names: string[]; warnings: string[]; stderr: string }> {
  const r = await lspgate(['search_symbols', '--query', query, '--max_results', '50', '--json', '--index', index]);
  expect(r.code, r.stderr).toBe(0);
  const json = JSON.parse(r.stdout) as { results: { name: string }[]; _meta?: { warnings?: string[] } };
  return { names: json.results.map((s) => s.name), warnings: json._meta?.warnings ?? [], stderr: r.stderr };
}

const ownerUrl = () => cluster.url('lspgate_owner', OWNER_PW);
const readerUrl = () => cluster.url('lspgate_reader', READER_PW);

describe.skipIf(pgSkip)('the published index in PostgreSQL', () => {
  beforeAll(async () => {
    assertBuilt();
    cluster = await startCluster();
    root = await publishableFixture(cluster, 'lspgate-pgrepo-', { owner: OWNER_PW, reader: READER_PW });
    dirs.push(root);
  }, 120_000);

  afterAll(async () => {
    await cluster?.stop();
    for (const d of dirs) removeDir(d);
  });

  it('publishes the workspace at HEAD in one go, then only what changed', async () => {
    const r = await lspgate(['publish', '--to', ownerUrl(), '--json']);
    expect(r.code, r.stderr).toBe(0);
    const report = JSON.parse(r.stdout) as { files: number; new_files: number; symbols: number; chunks: number; commit: string };
    expect(report).toMatchObject({ files: 11, new_files: 11, commit: git('rev-parse', 'HEAD').trim() });
    expect(report.symbols).toBeGreaterThan(50);
    expect(report.chunks).toBeGreaterThan(0);
    for (const stmt of readerGrants('lspgate_reader', 'lspgate_owner')) await cluster.admin(stmt);
    const rows = await cluster.admin('SELECT count(*)::int AS n FROM lspgate.symbols');
    expect(rows.rows[0].n).toBe(report.symbols);
    // the same commit again writes nothing new
    const again = await lspgate(['publish', '--to', ownerUrl(), '--json']);
    expect(JSON.parse(again.stdout)).toMatchObject({ files: 11, new_files: 0, new_symbols: 0 });
    expect(r.stdout + r.stderr + again.stdout + again.stderr).not.toContain(OWNER_PW);
  }, 120_000);

  it('answers from the published rows when the local files are unchanged', async () => {
    // a name only the published rows hold: the local parse of math.ts would never produce it
    await cluster.admin(
      `UPDATE lspgate.symbols SET detail = jsonb_set(jsonb_set(detail, '{name}', '"publishedOnlyMarker"'), '{qualified_name}', '"publishedOnlyMarker"')
        WHERE name = 'clamp'`,
    );
    const found = await search('publishedOnlyMarker', readerUrl());
    expect(found.names).toContain('publishedOnlyMarker');
    expect(found.stderr).toMatch(/published index postgresql:\/\/lspgate_reader:\*\*\*@[^ ]+: 11 files of .* \(head\), 0 differ locally/);
    expect(found.stderr + JSON.stringify(found)).not.toContain(READER_PW);
  }, 60_000);

  it('overlays a locally changed file with the local catalog', async () => {
    const file = path.join(root, 'src/util/strings.ts');
    const before = readFileSync(file, 'utf8');
    writeFileSync(file, before.replace('export function joinAll(', 'export function joinEvery('));
    try {
      const changed = await search('joinEvery', readerUrl());
      expect(changed.names).toContain('joinEvery');
      expect(changed.stderr).toMatch(/10 files of .*, 1 differ locally/);
      const removed = await search('joinAll', readerUrl());
      expect(removed.names).not.toContain('joinAll');
      // the unchanged files still answer from the index
      expect((await search('publishedOnlyMarker', readerUrl())).names).toContain('publishedOnlyMarker');
    } finally {
      writeFileSync(file, before);
    }
  }, 90_000);

  it('answers `lspgate mcp --index` from the published rows too', async () => {
    const cacheDir = tempDir('lspgate-pgcache-');
    dirs.push(cacheDir);
    const mcp = await connectStdio(CLI, ['mcp', '--root', root, '--index', readerUrl()], { cacheDir, env: { LSPGATE_LOG: 'info' } });
    try {
      const r = await mcp.client.callTool({ name: 'search_symbols', arguments: { query: 'publishedOnlyMarker' } });
      const names = ((r.structuredContent as { results: { name: string }[] }).results ?? []).map((x) => x.name);
      expect(names).toContain('publishedOnlyMarker');
      expect(mcp.stderr()).toMatch(/published index postgresql:\/\/lspgate_reader:\*\*\*@/);
      expect(mcp.stderr() + JSON.stringify(r)).not.toContain(READER_PW);
    } finally {
      await mcp.client.close();
    }
  }, 60_000);

  it('gives the read-only role no way to write', async () => {
    const c = new pg.Client({ connectionString: readerUrl() });
    await c.connect();
    try {
      // past the read-only default the role sets: the privilege itself is missing
      await c.query('SET default_transaction_read_only = off');
      await expect(c.query(`INSERT INTO lspgate.repositories (name) VALUES ('intruder')`)).rejects.toMatchObject({ code: '42501' });
      await expect(c.query('DELETE FROM lspgate.symbols')).rejects.toMatchObject({ code: '42501' });
      await expect(c.query('CREATE TABLE lspgate.intruder (x int)')).rejects.toMatchObject({ code: '42501' });
    } finally {
      await c.end();
    }
    const r = await lspgate(['publish', '--to', readerUrl()]);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain('READ_ONLY');
    expect(r.stdout + r.stderr).not.toContain(READER_PW);
    expect((await cluster.admin(`SELECT count(*)::int AS n FROM lspgate.repositories`)).rows[0].n).toBe(1);
  }, 60_000);

  it('says an unreachable index in the answer, coded and without the password, and answers locally', async () => {
    const secret = 'Unreachable-Pw-42';
    const down = `postgresql://someone:${secret}@127.0.0.1:1/db?password=${secret}`;
    const r = await search('joinAll', down);
    expect(r.names).toContain('joinAll');
    expect(r.warnings.join('\n')).toMatch(
      /^INDEX_UNAVAILABLE: the index at postgresql:\/\/someone:\*\*\*@127\.0\.0\.1:1\/db\?password=\*\*\* could not be used/m,
    );
    expect(JSON.stringify(r)).not.toContain(secret);
    // a wrong password is refused by the server: the same code, the password in no output
    const wrong = await search('joinAll', cluster.url('lspgate_reader', 'Wrong-Pw-77'));
    expect(wrong.warnings.join('\n')).toMatch(/INDEX_UNAVAILABLE: .*password authentication failed/);
    expect(JSON.stringify(wrong)).not.toContain('Wrong-Pw-77');
    expect(wrong.names).toContain('joinAll');
  }, 60_000);
});
