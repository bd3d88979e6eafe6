/**
 * The `lspgate` command keeps Node's compiled modules in its private cache (src/link/code-cache.ts):
 * a one-shot operation writes the modules it loaded under `<cache>/code-cache` (0700), a cache directory another user could
 * write gets none (and lspgate refuses that directory as ever), and `LSPGATE_CODE_CACHE=off` leaves
 * it off.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, readdirSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { assertBuilt, CLI, REPO, tempDir } from '../helpers/spawn.js';

const SMALL = path.join(REPO, 'fixtures/cold-py');

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});
beforeAll(() => assertBuilt());

function run(env: Record<string, string>): { status: number | null; stdout: string } {
  const { LSPGATE_CODE_CACHE: _, ...rest } = process.env;
  const r = spawnSync(process.execPath, [CLI, 'get_file_tree', '--root', SMALL], { env: { ...rest, LSPGATE_DAEMON: 'off', ...env }, encoding: 'utf8' });
  return { status: r.status, stdout: r.stdout };
}

/** Every file under `dir`, at any depth. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((d) => d.isFile())
    .map((d) => path.join(d.parentPath, d.name));
}

describe('the code cache', () => {
  it('is written in the private cache directory, 0700', () => {
    const cache = tempDir('lspgate-code-cache-');
    dirs.push(cache);
    expect(run({ LSPGATE_CACHE_DIR: cache }).status).toBe(0);
    const dir = path.join(cache, 'code-cache');
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    // Node's own subdirectory and files too: every directory of the cache 0700, every file 0600
    for (const sub of readdirSync(dir)) expect(statSync(path.join(dir, sub)).mode & 0o777).toBe(0o700);
    const files = filesUnder(dir);
    expect(files.length).toBeGreaterThan(0);
    for (const f of files) expect(statSync(f).mode & 0o777).toBe(0o600);
  });

  it('is not kept in a cache directory others can write, nor when turned off', () => {
    const open = tempDir('lspgate-code-cache-');
    dirs.push(open);
    chmodSync(open, 0o777);
    run({ LSPGATE_CACHE_DIR: open });
    expect(existsSync(path.join(open, 'code-cache'))).toBe(false);
    const off = tempDir('lspgate-code-cache-');
    dirs.push(off);
    expect(run({ LSPGATE_CACHE_DIR: off, LSPGATE_CODE_CACHE: 'off' }).status).toBe(0);
    expect(existsSync(path.join(off, 'code-cache'))).toBe(false);
  });
});
