/**
 * Which folders index_folder / index_repo may open (`index_folder /etc` then
 * `search_text` returned /etc/shadow lines). Allowed: the gateway's own root (`--root`), the
 * folders the user lists as `allowedRoots` in `$XDG_CONFIG_HOME/lspgate/config.json` or in
 * `LSPGATE_ALLOWED_ROOTS` (path-delimiter separated), and clones under lspgate's cache
 * (`<cacheDir>/repos`). A workspace's own `.lspgate/config.json` cannot widen this: an opened
 * repository would grant itself the machine. Paths are compared after realpath, so a symlink
 * inside a workspace leads nowhere it could not go by name.
 */
import { realpathSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { readJsonConfig } from '../config/load.js';
import { userConfigFile } from '../config/trust.js';
import { LspgateError } from '../errors/errors.js';
import { isInside } from '../util/paths.js';

export { userConfigFile };

/** allowedRoots from the user config file and LSPGATE_ALLOWED_ROOTS, as given (not yet real). */
export function configuredAllowedRoots(env: NodeJS.ProcessEnv = process.env): string[] {
  const out: string[] = [];
  const file = userConfigFile(env);
  const raw = readJsonConfig(file);
  if (raw !== undefined) {
    const roots = (raw as { allowedRoots?: unknown } | null)?.allowedRoots;
    if (roots !== undefined && !(Array.isArray(roots) && roots.every((r) => typeof r === 'string'))) {
      throw new LspgateError('INVALID_INPUT', `${file}: "allowedRoots" must be an array of folder paths`, { file });
    }
    out.push(...((roots as string[] | undefined) ?? []));
  }
  if (env.LSPGATE_ALLOWED_ROOTS) out.push(...env.LSPGATE_ALLOWED_ROOTS.split(path.delimiter).filter(Boolean));
  return out;
}

export class RootPolicy {
  private readonly roots: string[];

  constructor(defaultRoot: string, cacheDir: string, extra: string[]) {
    // resolved now, realpath'd at each check: a listed folder (or the clone cache) may appear later
    this.roots = [defaultRoot, path.join(cacheDir, 'repos'), ...extra.map((r) => path.resolve(r.replace(/^~(?=$|\/)/, os.homedir())))];
  }

  /** Throws PATH_OUTSIDE_WORKSPACE unless the real folder `realDir` is inside an allowed root. */
  check(realDir: string, asked: string): void {
    if (this.roots.some((r) => isInside(r, realDir) || isInside(safeReal(r), realDir))) return;
    throw new LspgateError(
      'PATH_OUTSIDE_WORKSPACE',
      `${asked} is outside the folders lspgate may open; to allow it, add it to "allowedRoots" in ${userConfigFile()} (or LSPGATE_ALLOWED_ROOTS), or start lspgate with --root there`,
      { path: asked, allowed: this.roots },
    );
  }
}

function safeReal(p: string): string {
  try {
    return realpathSync(p);
  } catch {
    return p;
  }
}
