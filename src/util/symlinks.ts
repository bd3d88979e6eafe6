/**
 * Symlinks inside a workspace, as language servers meet them. intelephense follows directory
 * symlinks while it walks a root: a `loop/up -> ..` link made it index the project again under
 * `loop/up/loop/up/...` (1,123 files queued for 163 real ones) and answer every reference once per
 * copy (82 instead of 2). Locations a server sends are put back on their real path
 * (`canonicalPath`), and servers that take exclude globs are told to skip every directory
 * symlink of the root (`directorySymlinks`): the real directory is indexed at its own path, and
 * a target outside the root is not the user's to index.
 */
import { readdirSync, realpathSync, statSync } from 'node:fs';
import path from 'node:path';

import { isInside } from './paths.js';

/** Directories never searched for symlinks (they hold no project sources a server should see twice). */
const SKIP_DIRS = new Set(['.git', '.hg', '.svn', 'node_modules', '.lspgate']);

/**
 * Absolute paths of the directory symlinks below `root`, found without following any symlink,
 * in a walk bounded by `maxEntries` directory entries (a huge tree is not walked to the end).
 */
export function directorySymlinks(root: string, maxEntries = 200_000): string[] {
  const found: string[] = [];
  const queue = [root];
  let seen = 0;
  while (queue.length && seen < maxEntries) {
    const dir = queue.shift()!;
    let entries;
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      continue;
    }
    for (const ent of entries) {
      if (++seen > maxEntries) break;
      const abs = path.join(dir, ent.name);
      if (ent.isDirectory()) {
        if (!SKIP_DIRS.has(ent.name)) queue.push(abs);
      } else if (ent.isSymbolicLink() && pointsToDirectory(abs)) found.push(abs);
    }
  }
  return found.sort();
}

function pointsToDirectory(abs: string): boolean {
  try {
    return statSync(abs).isDirectory();
  } catch {
    // a dangling link, or a loop the kernel gives up on (ELOOP): nothing to index behind it
    return false;
  }
}

/**
 * The real path of a location the server reports under `root`: `loop/up/src/a.php` → `src/a.php`
 * for a symlink that stays inside the root, and the real path outside the root for a link out of
 * it (`src/link.ts -> /elsewhere/b.ts` → `/elsewhere/b.ts`), so callers, which decide containment
 * on the path this returns, never quote a file outside the root through a link inside it. The
 * path as given when it is outside the root already or missing.
 */
export function canonicalPath(root: string, abs: string, cache?: Map<string, string>): string {
  if (!isInside(root, abs)) return abs;
  const hit = cache?.get(abs);
  if (hit !== undefined) return hit;
  let real = abs;
  try {
    real = realpathSync.native(abs);
  } catch {
    // missing file: keep the server's path
  }
  cache?.set(abs, real);
  // a real path is its own (a location already put on it is not resolved again)
  cache?.set(real, real);
  return real;
}
