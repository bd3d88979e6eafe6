/**
 * Where the daemon listens (src/link/paths.ts holds the one copy; the entry needs it before
 * anything heavy loads): a Unix domain socket in a directory only this user can enter. Here its
 * refusals become LspgateErrors.
 */
import { toLspgateError } from '../../errors/errors.js';
import * as light from '../../link/paths.js';

export { type DaemonPaths, daemonPaths } from '../../link/paths.js';

/** Creates `dir` (0700) if absent; throws DAEMON_FAILED if it is not a private directory of this user. */
export function ensurePrivateDir(dir: string): void {
  try {
    light.ensurePrivateDir(dir);
  } catch (e) {
    throw toLspgateError(e);
  }
}

/** Throws UNSAFE_DIRECTORY for a cache dir of another user, a symlink, or one others can write (src/link/paths.ts). */
export function checkCacheDir(dir: string): void {
  try {
    light.checkCacheDir(dir);
  } catch (e) {
    throw toLspgateError(e);
  }
}

export function checkPrivateDir(dir: string): void {
  try {
    light.checkPrivateDir(dir);
  } catch (e) {
    throw toLspgateError(e);
  }
}
