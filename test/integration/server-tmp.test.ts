/**
 * Servers' temporary files stay in lspgate's private cache. typescript-language-server left a
 * world-readable (0755) directory in /tmp at every stop; now each server process runs with
 * TMPDIR/TMP/TEMP set to a directory of its own under the cache (0700), removed when the process
 * exits, and the directories of lspgate processes that are gone are swept when a broker starts.
 * The test gives itself a TMPDIR of its own (a /tmp stand-in) and starts and stops a real
 * typescript-language-server session several times: nothing new appears in the stand-in.
 */
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { createBroker } from '../../src/broker/broker.js';
import { loadServers } from '../../src/config/load.js';
import { serverTmpRoot } from '../../src/lsp/server-tmp.js';
import { createLogger } from '../../src/util/logger.js';
import { removeDir, tempDir, TS_APP } from '../helpers/spawn.js';

const logger = createLogger('test', 'error');
const ROUNDS = 3;

/** A variable of a running process's environment. */
function envOf(pid: number, name: string): string | undefined {
  const vars = readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0');
  return vars.find((v) => v.startsWith(`${name}=`))?.slice(name.length + 1);
}

describe("servers' temp dirs", () => {
  let dir: string;
  let standIn: string;
  const savedTmp = process.env.TMPDIR;

  beforeAll(() => {
    dir = tempDir('lspgate-server-tmp-');
    standIn = path.join(dir, 'tmp');
    mkdirSync(standIn);
    process.env.TMPDIR = standIn;
  });

  afterAll(() => {
    if (savedTmp === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = savedTmp;
    if (dir) removeDir(dir);
  });

  it('a TypeScript session started and stopped several times leaves nothing in TMPDIR; its own temp dir is private while it runs and gone after', async () => {
    const root = path.join(dir, 'ws');
    cpSync(TS_APP, root, { recursive: true });
    const cacheDir = path.join(dir, 'cache');
    const file = path.join(root, 'src/util/math.ts');
    // a temp dir left by an lspgate process that is gone (pid 2^22 + 1 is above Linux's pid_max)
    const stale = path.join(serverTmpRoot(cacheDir), '4194305-abcdef');
    mkdirSync(stale, { recursive: true, mode: 0o700 });
    for (let round = 0; round < ROUNDS; round++) {
      const broker = createBroker({ servers: loadServers({ workspaceRoot: root, logger }), cacheDir, logger });
      expect(existsSync(stale)).toBe(false);
      try {
        const session = await broker.sessionFor(file, root);
        await session.syncDocument(file);
        expect(await session.waitReady()).toBe('ready');
        const own = envOf(session.pid!, 'TMPDIR')!;
        expect(path.dirname(own)).toBe(serverTmpRoot(cacheDir));
        expect(envOf(session.pid!, 'TMP')).toBe(own);
        expect(envOf(session.pid!, 'TEMP')).toBe(own);
        expect(statSync(own).mode & 0o777).toBe(0o700);
        expect(statSync(serverTmpRoot(cacheDir)).mode & 0o777).toBe(0o700);
      } finally {
        await broker.stop();
      }
    }
    expect(readdirSync(standIn)).toEqual([]);
    // removed once the tree exited (the stop waits for it)
    expect(readdirSync(serverTmpRoot(cacheDir))).toEqual([]);
  }, 300_000);
});
