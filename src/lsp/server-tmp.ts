/**
 * Each server process gets a temporary directory of its own, inside lspgate's private cache, as
 * TMPDIR/TMP/TEMP. typescript-language-server leaves a world-readable (0755) directory in /tmp at
 * every stop (223 of them after a few days); what servers write to their temp dir (tsserver's
 * cancellation pipes, logs, gopls's scratch files) is about the user's source, so it belongs in the
 * cache that is private to the user (0700). The directory goes when the process's tree exits; those
 * of lspgate processes that died without cleaning up (their pid is in the name) are swept when a
 * broker starts.
 */
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import path from 'node:path';

import { mkdirPrivate } from '../util/private-files.js';

/** Where the servers' temp dirs live, under the cache dir. */
export function serverTmpRoot(cacheDir: string): string {
  return path.join(cacheDir, 'server-tmp');
}

/** A new private (0700: mkdtemp's mode) directory for one server process, named for this lspgate process. */
export function makeServerTmp(cacheDir: string): string {
  const root = serverTmpRoot(cacheDir);
  mkdirPrivate(root);
  return mkdtempSync(path.join(root, `${process.pid}-`));
}

/** The variables that name the temp dir, for POSIX tools (TMPDIR), and the ones some runtimes read (TMP, TEMP). */
export function tmpEnv(dir: string): Record<string, string> {
  return { TMPDIR: dir, TMP: dir, TEMP: dir };
}

export function removeServerTmp(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    // EPERM: it exists, owned by someone else
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Removes the temp dirs of lspgate processes that are gone (a crash, a SIGKILL); returns how many. */
export function sweepServerTmp(cacheDir: string): number {
  let entries: string[];
  try {
    entries = readdirSync(serverTmpRoot(cacheDir));
  } catch {
    return 0;
  }
  let swept = 0;
  for (const name of entries) {
    const pid = Number(/^(\d+)-/.exec(name)?.[1]);
    // this process's own dirs belong to servers it runs; a pid alive now is another lspgate's
    if (!Number.isInteger(pid) || pid <= 0 || pid === process.pid || processAlive(pid)) continue;
    removeServerTmp(path.join(serverTmpRoot(cacheDir), name));
    swept++;
  }
  return swept;
}
