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
import fs from 'node:fs';
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

/** A git config larger than this is not read for its hooks path (a real one is a few KiB). */
const MAX_CONFIG_BYTES = 1 << 20;

/** The config file of the repository whose work tree is `dir`: `.git/config`, or the one a `.git` file points to. */
function gitConfigOf(dir: string): string | undefined {
  const dotGit = path.join(dir, '.git');
  let st: fs.Stats;
  try {
    st = fs.statSync(dotGit);
  } catch {
    return undefined;
  }
  if (st.isDirectory()) return path.join(dotGit, 'config');
  if (!st.isFile() || st.size > 4096) return undefined;
  // a worktree's or submodule's `.git` file: `gitdir: <dir>`; a worktree's config is its common dir's
  const gitdir = /^gitdir:\s*(.+?)\s*$/m.exec(fs.readFileSync(dotGit, 'utf8'))?.[1];
  if (!gitdir) return undefined;
  const at = path.resolve(dir, gitdir);
  try {
    const common = fs.readFileSync(path.join(at, 'commondir'), 'utf8').trim();
    return path.join(path.resolve(at, common), 'config');
  } catch {
    return path.join(at, 'config');
  }
}

/** `core.hooksPath` of a git config's text (the last one wins, as git reads it), unquoted. */
export function hooksPathSetting(config: string): string | undefined {
  let section = '';
  let found: string | undefined;
  for (const raw of config.split('\n')) {
    const line = raw.trim();
    const head = /^\[\s*([A-Za-z0-9.-]+)(\s+"[^"]*")?\s*\]/.exec(line);
    if (head) {
      section = head[2] ? '' : head[1]!.toLowerCase();
      continue;
    }
    const kv = /^([A-Za-z][A-Za-z0-9-]*)\s*=\s*(.*)$/.exec(line);
    if (section === 'core' && kv && kv[1]!.toLowerCase() === 'hookspath') found = kv[2]!.replace(/^"(.*)"$/, '$1').trim();
  }
  return found || undefined;
}

/**
 * The hook folders the repositories around `abs` name in their config (`core.hooksPath`, as husky sets
 * it: `.husky/_`, whose hooks run the scripts of `.husky/` itself, so the parent of a `_` folder counts
 * too), for each work tree from `abs`'s folder up to `root`; the root-relative one holding `abs`, if any.
 */
export function configuredHooksOf(root: string, abs: string): string | undefined {
  for (let dir = path.dirname(abs); ; dir = path.dirname(dir)) {
    const rel = path.relative(root, dir);
    if (rel === '..' || rel.startsWith(`..${path.sep}`) || path.isAbsolute(rel)) return undefined;
    const hooks = hooksFolders(dir);
    const holding = hooks.find((h) => abs === h || abs.startsWith(h + path.sep));
    if (holding) return path.relative(root, holding).split(path.sep).join('/') || '.';
    if (dir === root || path.dirname(dir) === dir) return undefined;
  }
}

function hooksFolders(dir: string): string[] {
  const config = gitConfigOf(dir);
  if (!config) return [];
  let text: string;
  try {
    if (fs.statSync(config).size > MAX_CONFIG_BYTES) return [];
    text = fs.readFileSync(config, 'utf8');
  } catch {
    return [];
  }
  const setting = hooksPathSetting(text);
  // `~/…` and absolute paths lie outside the work tree: containment already keeps writes out of them
  if (!setting || setting.startsWith('~') || path.isAbsolute(setting)) return [];
  let hooks = path.resolve(dir, setting);
  try {
    hooks = fs.realpathSync(hooks);
  } catch {
    // a folder not made yet is still where git will look
  }
  return path.basename(hooks) === '_' ? [hooks, path.dirname(hooks)] : [hooks];
}

/**
 * Throws PATH_OUTSIDE_WORKSPACE (details.reason `vcs_internals`) when `abs` is in VCS or tool
 * internals, or in a hooks folder a repository's git config names: the writable part of a workspace
 * ends at them. `shown` names the path in the message.
 */
export function refuseVcsInternals(root: string, abs: string, shown: string): void {
  const internals = vcsInternalsOf(root, abs);
  const hooks = internals === undefined ? configuredHooksOf(root, abs) : undefined;
  if (internals === undefined && hooks === undefined) return;
  const where =
    internals !== undefined
      ? `${internals}, VCS or tool internals (git runs its hooks and reads its config from there)`
      : `${hooks}, the hooks folder the repository's git config names (core.hooksPath: git runs what it holds)`;
  throw new LspgateError('PATH_OUTSIDE_WORKSPACE', `${shown} is inside ${where}: lspgate never writes there; nothing is changed`, {
    path: shown,
    reason: 'vcs_internals',
    internals: internals ?? hooks,
  });
}
