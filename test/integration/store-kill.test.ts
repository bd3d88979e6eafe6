/**
 * A process killed (SIGKILL) in the middle of a large refresh leaves a workspace database that opens
 * and answers, with every file either as it was or as it became — its row, text and symbols of the
 * same version, never half of each (one transaction per file).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { pathToFileURL } from 'node:url';

import { afterAll, expect, it } from 'vitest';

import { Gateway, workspaceId } from '../../src/gateway/gateway.js';
import { indexDbPath } from '../../src/store/db.js';

const FILES = 1500;
const tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'lspgate-kill-')));
const root = path.join(tmp, 'repo');
const cacheDir = path.join(tmp, 'cache');
let child: ChildProcess | undefined;

afterAll(() => {
  if (child?.pid && child.exitCode === null && child.signalCode === null) process.kill(-child.pid, 'SIGKILL');
  fs.rmSync(tmp, { recursive: true, force: true });
});

function writeFiles(version: string): void {
  for (let i = 0; i < FILES; i++) {
    fs.writeFileSync(
      path.join(root, 'src', `m${i}.ts`),
      `export function f${i}_${version}(): number {\n  return ${i};\n}\nexport const c${i}_${version} = 1;\n`,
    );
  }
}

/** The child: a gateway that builds the catalog, says `built`, and refreshes it on a line from stdin. */
const CHILD = (gateway: string) => `
import { Gateway } from ${JSON.stringify(gateway)};
const [root, cacheDir] = process.argv.slice(2);
const g = await Gateway.create({ root, cacheDir });
const ws = await g.openWorkspace(root);
await ws.catalog.build();
process.stdout.write('built\\n');
process.stdin.once('data', () => { process.stdout.write('refreshing\\n'); void ws.catalog.refresh(); });
`;

function waitFor(proc: ChildProcess, word: string): Promise<void> {
  return new Promise((resolve, reject) => {
    let out = '';
    proc.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      if (out.includes(word)) resolve();
    });
    proc.once('exit', (code) => reject(new Error(`child exited (${code}) before "${word}": ${out}`)));
  });
}

it('a SIGKILL mid-refresh leaves every file as it was or as it became, and the database answers', { timeout: 300_000 }, async () => {
  fs.mkdirSync(path.join(root, 'src'), { recursive: true });
  fs.writeFileSync(path.join(root, 'package.json'), '{"name":"kill","private":true}\n');
  writeFiles('v1');
  const script = path.join(tmp, 'child.mjs');
  fs.writeFileSync(script, CHILD(pathToFileURL(path.resolve('dist/src/gateway/gateway.js')).href));
  // its own process group: the kill takes the language servers it started too
  child = spawn(process.execPath, [script, root, cacheDir], { stdio: ['pipe', 'pipe', 'inherit'], detached: true });
  await waitFor(child, 'built');
  const dbFile = indexDbPath(cacheDir, workspaceId(root));
  const reader = new DatabaseSync(dbFile, { readOnly: true });
  const v2 = reader.prepare("SELECT count(*) AS n FROM symbols WHERE name LIKE 'f%\\_v2' ESCAPE '\\'");
  expect(reader.prepare('SELECT count(*) AS n FROM files').get()).toEqual({ n: FILES });

  writeFiles('v2');
  child.stdin!.write('go\n');
  // killed while a write is under way: the first time the count of rewritten files moves past 5 %
  const start = Date.now();
  let seen = 0;
  while (Date.now() - start < 240_000) {
    seen = (v2.get() as { n: number }).n;
    if (seen > FILES * 0.05) break;
    await new Promise((r) => setTimeout(r, 5));
  }
  process.kill(-child.pid!, 'SIGKILL');
  await new Promise((r) => child!.once('exit', r));
  reader.close();
  expect(seen).toBeGreaterThan(FILES * 0.05);

  const db = new DatabaseSync(dbFile);
  expect(db.prepare('PRAGMA integrity_check').get()).toEqual({ integrity_check: 'ok' });
  const rows = db.prepare('SELECT id, path, content, hash FROM files').all() as { id: number; path: string; content: string; hash: string }[];
  expect(rows).toHaveLength(FILES);
  const names = db.prepare('SELECT name FROM symbols WHERE file_id = ? ORDER BY ord');
  const versions = { v1: 0, v2: 0 };
  for (const r of rows) {
    const v = r.content.includes('_v2') ? 'v2' : 'v1';
    versions[v]++;
    expect(createHash('sha256').update(r.content).digest('hex')).toBe(r.hash);
    const i = /m(\d+)\.ts$/.exec(r.path)![1];
    expect((names.all(r.id) as { name: string }[]).map((n) => n.name)).toEqual([`f${i}_${v}`, `c${i}_${v}`]);
  }
  // the kill came mid-refresh: some files were rewritten, some not yet
  expect(versions.v1).toBeGreaterThan(0);
  expect(versions.v2).toBeGreaterThan(0);
  const fts = db.prepare("SELECT count(*) AS n FROM files_fts WHERE files_fts MATCH 'f7_v1 OR f7_v2'").get() as { n: number };
  expect(fts.n).toBe(1);
  db.close();

  // a new process on the same cache opens it and answers, brought up to date with the disk
  const g = await Gateway.create({ root, cacheDir });
  try {
    const r = (await g.run('search_symbols', { query: 'f7_v2', output_format: 'json' })).result as unknown as { results: { file: string }[] };
    expect(r.results.map((h) => h.file)).toContain('src/m7.ts');
  } finally {
    await g.close();
  }
});
