/**
 * Node's on-disk cache of compiled modules (`module.enableCompileCache`) in lspgate's private cache
 * directory: a start after the first loads lspgate's modules (~670 with the operations, the stores and
 * the MCP SDK) from V8's code cache instead of compiling each again — the largest part of a warm
 * restart's first answer once the answer itself reads only what it needs. The cache holds lspgate's
 * own code and its dependencies' (never a workspace's: lspgate loads no module from one), keyed by
 * each file's content, and lives where lspgate keeps everything else: a directory of this user that no
 * one else can write (checkCacheDir), or not at all. `LSPGATE_CODE_CACHE=off` leaves it off.
 * Node builtins and src/link only: the `lspgate` entry calls it before it loads anything else.
 */
import { chmodSync, mkdirSync } from 'node:fs';
import module from 'node:module';
import path from 'node:path';

import { checkCacheDir, defaultCacheDir } from './paths.js';

/** Modules loaded after this long are written at exit; those before, then too (a daemon may never exit cleanly). */
const FLUSH_AFTER_MS = 15_000;

/** Turns the code cache on for this process; the directory used, or undefined when it stays off. */
export function enableCodeCache(env: NodeJS.ProcessEnv = process.env): string | undefined {
  if (env.LSPGATE_CODE_CACHE === 'off' || typeof module.enableCompileCache !== 'function') return undefined;
  const root = defaultCacheDir(env);
  const dir = path.join(root, 'code-cache');
  try {
    // an unsafe cache directory is refused with its own error when lspgate first uses it; until then, no cache
    checkCacheDir(root);
    mkdirSync(root, { recursive: true, mode: 0o700 });
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    checkCacheDir(root);
    checkCacheDir(dir);
  } catch {
    return undefined;
  }
  const { status } = module.enableCompileCache(dir);
  const { ENABLED, ALREADY_ENABLED } = module.constants.compileCacheStatus;
  if (status !== ENABLED && status !== ALREADY_ENABLED) return undefined;
  // Node makes its versioned subdirectory with the umask's mode (0755) and its files 0600: like every
  // directory of the cache, 0700 (inside a 0700 directory nobody else could enter it meanwhile)
  const made = module.getCompileCacheDir?.();
  if (made && path.dirname(made) === dir) {
    try {
      chmodSync(made, 0o700);
    } catch {
      // not there: Node keeps no cache
    }
  }
  setTimeout(() => module.flushCompileCache?.(), FLUSH_AFTER_MS).unref();
  return dir;
}
