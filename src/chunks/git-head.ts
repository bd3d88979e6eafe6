/**
 * The current git HEAD read from the repository files, not by spawning `git rev-parse` (~50-100 ms
 * under load): stale detection asks on every search. Handles a `.git` file (worktrees,
 * submodules: `gitdir: ...`, refs in the `commondir`), loose refs and packed-refs. '' outside git.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

import { runGit } from '../util/git.js';

function gitDirOf(root: string): string | undefined {
  for (let dir = root; ; dir = path.dirname(dir)) {
    const dotGit = path.join(dir, '.git');
    if (existsSync(dotGit)) {
      if (statSync(dotGit).isDirectory()) return dotGit;
      const m = /^gitdir:\s*(.+)$/m.exec(readFileSync(dotGit, 'utf8'));
      return m ? path.resolve(dir, m[1]!.trim()) : undefined;
    }
    if (path.dirname(dir) === dir) return undefined;
  }
}

function readRef(gitDir: string, ref: string): string {
  const common = existsSync(path.join(gitDir, 'commondir')) ? path.resolve(gitDir, readFileSync(path.join(gitDir, 'commondir'), 'utf8').trim()) : gitDir;
  for (const dir of [gitDir, common]) {
    const loose = path.join(dir, ref);
    if (existsSync(loose)) return readFileSync(loose, 'utf8').trim();
  }
  const packed = path.join(common, 'packed-refs');
  if (!existsSync(packed)) return '';
  const line = readFileSync(packed, 'utf8')
    .split('\n')
    .find((l) => l.endsWith(` ${ref}`));
  return line ? line.slice(0, line.indexOf(' ')) : '';
}

export function currentGitHead(root: string): string {
  try {
    const gitDir = gitDirOf(root);
    if (!gitDir) return '';
    const head = readFileSync(path.join(gitDir, 'HEAD'), 'utf8').trim();
    const m = /^ref:\s*(.+)$/.exec(head);
    return m ? readRef(gitDir, m[1]!) : head;
  } catch {
    // An unreadable repository is "not a commit we can name", which stale detection treats as ''.
    return '';
  }
}

/**
 * A file's text at a commit (`git cat-file blob <commit>:./<file>`, the path taken relative to
 * `root`: `cat-file` never runs a textconv driver or filter the repository names), or
 * undefined when git has no such commit or file. `commit` must look like a commit hash: it is never
 * an option or a revision expression.
 */
export async function fileAtCommit(root: string, commit: string, file: string): Promise<string | undefined> {
  if (!/^[0-9a-f]{7,64}$/.test(commit)) return undefined;
  const r = await runGit(['cat-file', 'blob', `${commit}:./${file}`], { cwd: root, timeout: 30_000, maxBuffer: 64 * 1024 * 1024 });
  return r.exitCode === 0 ? r.stdout : undefined;
}
