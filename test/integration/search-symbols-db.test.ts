import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { Gateway } from '../../src/gateway/gateway.js';
import { indexDbPath } from '../../src/store/db.js';
import type { JsonResult } from '../helpers/results.js';

/**
 * search_symbols answers from the workspace database (symbol_texts): an edit is searched at once,
 * before the catalog's scheduled write (500 ms later), because the search writes pending files first.
 */
const FIXTURE = path.resolve(__dirname, '../../fixtures/repo-basic');
let tmp: string;
let root: string;
let gateway: Gateway;
let dbFile: string;

interface Hit {
  name: string;
  file: string;
  score: number;
}
const search = async (query: string): Promise<Hit[]> =>
  ((await gateway.run('search_symbols', { query, output_format: 'json' })).result as JsonResult as { results: Hit[] }).results;

/** The stored lower-cased names, read by another connection (what the search reads). */
function storedNames(): string[] {
  const db = new DatabaseSync(dbFile, { readOnly: true });
  try {
    return (db.prepare('SELECT lname FROM symbol_texts ORDER BY lname').all() as { lname: string }[]).map((r) => r.lname);
  } finally {
    db.close();
  }
}

beforeAll(async () => {
  tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'lspgate-symdb-')));
  root = path.join(tmp, 'repo');
  fs.cpSync(FIXTURE, root, { recursive: true });
  fs.writeFileSync(path.join(root, 'src/widget.ts'), 'export function oldWidgetName(): number {\n  return 1;\n}\n');
  const cacheDir = path.join(tmp, 'cache');
  gateway = await Gateway.create({ root, cacheDir });
  const ws = await gateway.openWorkspace(root);
  dbFile = indexDbPath(cacheDir, ws.id);
});

afterAll(async () => {
  await gateway.close();
  fs.rmSync(tmp, { recursive: true, force: true });
});

describe('search_symbols from the workspace database', () => {
  it('finds the cataloged symbols, each stored with its searched texts', async () => {
    expect((await search('oldWidgetName')).map((h) => [h.name, h.file])).toEqual([['oldWidgetName', 'src/widget.ts']]);
    expect(storedNames()).toContain('oldwidgetname');
  });

  it('an edited file is searched as it is now, before its scheduled write', async () => {
    fs.writeFileSync(path.join(root, 'src/widget.ts'), 'export function newWidgetName(): number {\n  return 2;\n}\n');
    // the old name's page holds the edited file: it is re-cataloged, and the search reads the rewritten rows
    expect(await search('oldWidgetName')).toEqual([]);
    const names = storedNames();
    expect(names).toContain('newwidgetname');
    expect(names).not.toContain('oldwidgetname');
    expect((await search('newWidgetName')).map((h) => [h.name, h.file, h.score])).toEqual([['newWidgetName', 'src/widget.ts', 127]]);
  });
});
