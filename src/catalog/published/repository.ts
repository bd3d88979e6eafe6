/**
 * How the published index names a workspace's repository and commit, the same way for the publisher
 * and the reader: LSPGATE_INDEX_REPO, else the `origin` remote without its scheme, credentials and
 * `.git` (`github.com/org/repo` for https and scp-like ssh alike), else the root's folder name.
 */
import path from 'node:path';

import { runGit } from '../../util/git.js';

export async function repositoryName(root: string, env: NodeJS.ProcessEnv = process.env): Promise<string> {
  const forced = env.LSPGATE_INDEX_REPO?.trim();
  if (forced) return forced;
  const r = await runGit(['config', '--get', 'remote.origin.url'], { cwd: root, timeout: 5000 });
  const remote = r.exitCode === 0 ? normalizeRemote(String(r.stdout).trim()) : '';
  return remote || path.basename(root);
}

export function normalizeRemote(url: string): string {
  if (!url) return '';
  let s = url.replace(/^[a-z][a-z0-9+.-]*:\/\//i, '');
  // user[:password]@ — a token in an https remote is a credential, never a name
  s = s.replace(/^[^@/]*@/, '');
  // scp-like ssh: host:org/repo
  s = s.replace(/^([^/:]+):(?!\d+\/)/, '$1/');
  return s.replace(/\.git\/?$/, '').replace(/\/+$/, '');
}
