/**
 * Where an edit may create a file (move_file's target): a root-relative path whose real location —
 * the real path of its nearest existing folder, then the names still to be made — is inside the
 * workspace, whose name is no secret's, and where nothing exists yet (not even a dangling link,
 * which a write would follow). Folders still missing may be created by the apply; the nearest one
 * that exists must be a real directory, not a link (a dangling link to a folder outside the root
 * would otherwise be made real there) and not a file. Never inside VCS or tool internals (`.git`,
 * `.hg`, `.svn`, `.lspgate` at any depth), by the path it lands at.
 */
import { lstatSync, realpathSync } from 'node:fs';
import path from 'node:path';

import { LspgateError } from '../../errors/errors.js';
import { isSecretPath, resolveInWorkspace, toRelative } from '../../util/paths.js';
import { refuseVcsInternals } from '../../util/vcs-internals.js';

export function newFileTarget(root: string, rel: string): { abs: string; file: string } {
  if (isSecretPath(rel)) throw new LspgateError('SECRET_FILE', `${rel} is a secret file's name: lspgate never writes one; nothing is changed`, { path: rel });
  // lexical containment, then the real path of the nearest existing folder; secrets by real name
  const abs = resolveInWorkspace(root, rel, { mustExist: false });
  const file = toRelative(root, abs);
  refuseVcsInternals(root, abs, file);
  if (abs === root || rel.endsWith('/')) throw new LspgateError('INVALID_INPUT', `${rel} names a folder, not a file: nothing is changed`, { path: rel });
  if (lstatSync(abs, { throwIfNoEntry: false })) {
    throw new LspgateError('INVALID_INPUT', `${file} exists already: a move never replaces a file; nothing is changed`, { path: file, reason: 'exists' });
  }
  let dir = path.dirname(abs);
  for (;;) {
    const st = lstatSync(dir, { throwIfNoEntry: false });
    if (st) {
      if (st.isSymbolicLink() || realpathSync(dir) !== dir)
        throw new LspgateError('PATH_OUTSIDE_WORKSPACE', `${toRelative(root, dir)} is a symlink: ${file} would be created through it; nothing is changed`, {
          path: file,
        });
      if (!st.isDirectory())
        throw new LspgateError('INVALID_INPUT', `${toRelative(root, dir)} is a file, not a folder: ${file} cannot be created; nothing is changed`, {
          path: file,
        });
      return { abs, file };
    }
    dir = path.dirname(dir);
  }
}
