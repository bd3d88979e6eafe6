// imports-me answers from every file's imports, never from a race with the catalog: 15 files import
// one module, and every fresh start answers 15 — also when an early answer (search_symbols) started
// the catalog's build, whose walk starts the watcher before every file is cataloged — and the answer
// after invalidate_cache is built again (it answered 0, `ready`, until a refresh).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { afterAll, describe, expect, it } from 'vitest';

import { Gateway } from '../../src/gateway/gateway.js';
import { FIXTURES } from '../helpers/gateway.js';
import type { JsonResult } from '../helpers/results.js';

const root = fs.realpathSync(path.join(FIXTURES, 'importers-ts'));
const USERS = Array.from({ length: 15 }, (_, i) => `src/users/user${String(i + 1).padStart(2, '0')}.ts`);
const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});

async function fresh(): Promise<{ gateway: Gateway; run: (op: string, input: Record<string, unknown>) => Promise<JsonResult> }> {
  const cacheDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lspgate-importers-'));
  dirs.push(cacheDir);
  const gateway = await Gateway.create({ root, cacheDir });
  return { gateway, run: async (op, input) => (await gateway.run(op, { ...input, output_format: 'json' })).result };
}

const importers = (r: JsonResult) => r.results.map((x: { from: string }) => x.from).sort();

describe('imports-me is exact', () => {
  it('answers all 15 importers on each of 3 fresh starts, with an early answer racing the build', async () => {
    for (let start = 0; start < 3; start++) {
      const { gateway, run } = await fresh();
      try {
        // 2: an early answer starts the catalog's build, and the question arrives while it runs;
        // 3: a subscription watches the workspace before any build (the watcher is on, the catalog empty)
        const early = start === 1 ? run('search_symbols', { query: 'user' }) : undefined;
        if (start === 2) await gateway.watchFile(undefined, 'src/lib/shared.ts', () => undefined);
        const r = await run('query_relationships', { query_type: 'imports-me', target: 'src/lib/shared.ts', max_depth: 1 });
        await early;
        expect(importers(r), `fresh start ${start + 1}`).toEqual(USERS);
        expect(r._meta.index_state).toBe('ready');
      } finally {
        await gateway.close();
      }
    }
  }, 240_000);

  it('after invalidate_cache the next answer is built again, not 0', async () => {
    const { gateway, run } = await fresh();
    try {
      expect(importers(await run('query_relationships', { query_type: 'imports-me', target: 'src/lib/shared.ts', max_depth: 1 }))).toEqual(USERS);
      await run('invalidate_cache', {});
      const after = await run('query_relationships', { query_type: 'imports-me', target: 'src/lib/shared.ts', max_depth: 1 });
      expect(importers(after)).toEqual(USERS);
      const deps = await run('query_relationships', { query_type: 'depends-on-me', target: 'src/lib/shared.ts', max_depth: 1 });
      expect(importers(deps)).toEqual(USERS);
    } finally {
      await gateway.close();
    }
  }, 120_000);
});
