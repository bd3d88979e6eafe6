/**
 * A workspace root deleted and copied back (`rm -rf` + `cp -r`) under a watching catalog. The
 * watches hang on the old directory: they see every file go, and never the new ones come, so the
 * catalog answered "0 files, 0 symbols" with nothing said once the deletions had been applied
 * before the copy (an answer in between applies them). Every answer must be the full catalog, a
 * coded error (the root missing: FILE_NOT_FOUND), or say it is not ready — never an empty catalog.
 * On ext4 the new directory usually gets the old one's inode number: device and inode alone do not
 * tell the two apart (the birth time and the root's own "gone" event do), and a directory below the
 * root deleted and copied back between two batches of changes must be watched anew just the same.
 */
import { appendFileSync, cpSync, rmSync } from 'node:fs';
import path from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { toLspgateError } from '../../src/errors/errors.js';
import { Gateway } from '../../src/gateway/gateway.js';
import { createLogger } from '../../src/util/logger.js';
import { removeDir, tempDir, TS_APP } from '../helpers/spawn.js';

const ROUNDS = 8;

type Outcome = { kind: 'full' } | { kind: 'not-ready'; state: string } | { kind: 'error'; code: string } | { kind: 'WRONG'; text: string };

describe('a root deleted and created again under the watcher', () => {
  let dir: string;
  let root: string;
  let gateway: Gateway;

  beforeAll(async () => {
    dir = tempDir('lspgate-root-replaced-');
    root = path.join(dir, 'ws');
    cpSync(TS_APP, root, { recursive: true });
    gateway = await Gateway.create({ root, cacheDir: path.join(dir, 'cache'), logger: createLogger('test', 'error') });
  });

  afterAll(async () => {
    await gateway?.close();
    if (dir) removeDir(dir);
  });

  /** search_symbols for a function of src/util/math.ts, classified. */
  async function ask(): Promise<Outcome> {
    try {
      const r = await gateway.run('search_symbols', { query: 'clamp', output_format: 'json' });
      const text = JSON.stringify(r.result);
      const state = (r.result._meta as { index_state: string }).index_state;
      if (text.includes('src/util/math.ts')) return { kind: 'full' };
      if (state === 'indexing') return { kind: 'not-ready', state };
      return { kind: 'WRONG', text: r.text.slice(0, 300) };
    } catch (e) {
      const code = toLspgateError(e).code;
      return code === 'INTERNAL' ? { kind: 'WRONG', text: String(e) } : { kind: 'error', code };
    }
  }

  it('answers the full catalog, a coded error or not-ready in every round, and the full catalog once the copy is back', async () => {
    const built = await gateway.run('index_folder', { path: root, output_format: 'json' });
    expect(built.result).toMatchObject({ state: 'ready' });
    expect(gateway.workspaces()[0]!.catalog.watching).toBe(true);
    expect(await ask()).toEqual({ kind: 'full' });
    for (let round = 0; round < ROUNDS; round++) {
      rmSync(root, { recursive: true, force: true });
      // an answer while the root is gone applies the deletions the watcher saw
      const between = await ask();
      expect(between.kind, JSON.stringify(between)).not.toBe('WRONG');
      if (between.kind === 'error') expect(between.code).toBe('FILE_NOT_FOUND');
      cpSync(TS_APP, root, { recursive: true });
      const after = await ask();
      expect(after.kind, `round ${round}: ${JSON.stringify(after)}`).not.toBe('WRONG');
      expect(after.kind).not.toBe('error');
    }
    // and it follows edits again: the watches are on the new directory
    expect(await ask()).toEqual({ kind: 'full' });
    appendFileSync(path.join(root, 'src/util/math.ts'), '\nexport function afterReplace(): number {\n  return 1;\n}\n');
    // the watch event comes when the kernel sends it: asked until it has (bounded)
    let found = '';
    for (let i = 0; i < 300 && !found.includes('src/util/math.ts'); i++) {
      if (i) await new Promise((r) => setTimeout(r, 100));
      found = JSON.stringify((await gateway.run('search_symbols', { query: 'afterReplace', output_format: 'json' })).result);
    }
    expect(found).toContain('src/util/math.ts');
  }, 300_000);

  it('follows edits in a directory deleted and copied back within one batch of changes', async () => {
    const util = path.join(root, 'src/util');
    for (let round = 0; round < 3; round++) {
      // one step: the watcher reports "src/util" once, and it is there — another directory, often the same inode
      rmSync(util, { recursive: true, force: true });
      cpSync(path.join(TS_APP, 'src/util'), util, { recursive: true });
      const name = `afterCopy${round}`;
      appendFileSync(path.join(util, 'math.ts'), `\nexport function ${name}(): number {\n  return ${round};\n}\n`);
      let found = '';
      for (let i = 0; i < 300 && !found.includes('src/util/math.ts'); i++) {
        if (i) await new Promise((r) => setTimeout(r, 100));
        found = JSON.stringify((await gateway.run('search_symbols', { query: name, output_format: 'json' })).result);
      }
      expect(found, `round ${round}`).toContain('src/util/math.ts');
    }
  }, 300_000);
});
