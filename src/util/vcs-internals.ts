/**
 * VCS and tool internals: `.git`, `.hg`, `.svn` and `.lspgate` folders (and a `.git` file, a
 * worktree's or submodule's pointer) at any depth. Git runs what it finds in `.git/hooks` and obeys
 * `.git/config`; Mercurial and Subversion have their own hooks and configs; `.lspgate/` holds the
 * repository's own lspgate config. No write of lspgate lands there: a file an agent moves or edits
 * into them would run on the next `git commit` or widen what lspgate does.
 *
 * A name is compared as the file systems that fold names would see it (git's own checks,
 * `is_hfs_dotgit` / `is_ntfs_dotgit`, do the same): case-folded, without the code points HFS+ ignores
 * (zero-width joiners and marks), without trailing dots and spaces (NTFS drops them), and `git~1`
 * (NTFS's short name of `.git`). On a case-sensitive file system `.GIT` is another folder; refusing a
 * write there costs nothing.
 */
import path from 'node:path';

import { LspgateError } from '../errors/errors.js';

export const VCS_INTERNALS = ['.git', '.hg', '.svn', '.lspgate'] as const;

const NAMES = new Set<string>([...VCS_INTERNALS, 'git~1']);

/** HFS+ ignores these when it compares names (git's list in utf8.c, `next_hfs_char`). */
const HFS_IGNORED = /[\u200c-\u200f\u202a-\u202e\u206a-\u206f\ufeff]/g;

function folded(name: string): string {
  return name
    .normalize('NFC')
    .replace(HFS_IGNORED, '')
    .toLowerCase()
    .replace(/[. ]+$/, '');
}

/** Whether one path component names a VCS or tool internals folder. */
export function isVcsInternalsName(name: string): boolean {
  return NAMES.has(folded(name));
}

/**
 * The root-relative path (with `/`) of the VCS or tool internals folder that `abs` is in (or is),
 * or undefined. `abs` is an absolute, normalized path inside `root` — the real path of what is
 * written, so a symlinked folder into `.git` or a spelling with `..` is judged where it lands.
 */
export function vcsInternalsOf(root: string, abs: string): string | undefined {
  const rel = path.relative(root, abs);
  if (!rel || rel === '..' || rel.startsWith(`..${path.sep}`) || path.isAbsolute(rel)) return undefined;
  const parts = rel.split(path.sep);
  const i = parts.findIndex(isVcsInternalsName);
  return i < 0 ? undefined : parts.slice(0, i + 1).join('/');
}

/**
 * Throws PATH_OUTSIDE_WORKSPACE (details.reason `vcs_internals`) when `abs` is in VCS or tool
 * internals: the writable part of a workspace ends at them. `shown` names the path in the message.
 */
export function refuseVcsInternals(root: string, abs: string, shown: string): void {
  const internals = vcsInternalsOf(root, abs);
  if (internals === undefined) return;
  throw new LspgateError(
    'PATH_OUTSIDE_WORKSPACE',
    `${shown} is inside ${internals}, VCS or tool internals (git runs its hooks and reads its config from there): lspgate never writes there; nothing is changed`,
    { path: shown, reason: 'vcs_internals', internals },
  );
}
