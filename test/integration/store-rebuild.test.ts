/**
 * A workspace database at a schema version this lspgate does not know is rebuilt, and the first
 * answer says so in `_meta.warnings`; the catalog is built again and answers.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { afterAll, expect, it } from 'vitest';

import { Gateway, workspaceId } from '../../src/gateway/gateway.js';
import { openIndexDb } from '../../src/store/db.js';
import { FIXTURES } from '../helpers/gateway.js';

const cacheDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lspgate-rebuild-'));
afterAll(() => fs.rmSync(cacheDir, { recursive: true, force: true }));

it('a database of an unknown schema version is rebuilt and the first answer says it', async () => {
  const root = fs.realpathSync(path.join(FIXTURES, 'ts-app'));
  const old = openIndexDb(cacheDir, workspaceId(root));
  old.setMeta('schema_version', '999');
  old.close();
  const g = await Gateway.create({ root, cacheDir });
  try {
    const first = (await g.run('search_symbols', { query: 'formatName', output_format: 'json' })).result as unknown as {
      results: { name: string }[];
      _meta: { warnings?: string[] };
    };
    expect(first._meta.warnings?.join('\n')).toMatch(/schema version 999, which this lspgate \(\d+\) does not know: it was rebuilt/);
    expect(first.results.map((r) => r.name)).toContain('formatName');
    const second = (await g.run('search_symbols', { query: 'padLeft', output_format: 'json' })).result as unknown as { _meta: { warnings?: string[] } };
    expect(second._meta.warnings?.join('\n') ?? '').not.toMatch(/rebuilt/);
  } finally {
    await g.close();
  }
});
