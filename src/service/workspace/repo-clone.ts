/**
 * index_repo's clone: any URL git accepts (https, ssh, a local path, file://) into
 * `<cacheDir>/repos/<name>-<hash>`, without a shell. The URL and ref are caller
 * input: a leading `-` would be read as an option, and the `ext::` transport runs commands, so
 * both are refused. git runs through util/git.ts (no hooks, no prompts, so a private URL fails
 * instead of hanging; ext:: refused by config too), and the clone never recurses into submodules.
 */
import { createHash } from 'node:crypto';
import { existsSync, rmSync } from 'node:fs';
import path from 'node:path';

import { LspgateError } from '../../errors/errors.js';
import { UMASK_VAR, wrapWithReaper } from '../../lsp/reaper.js';
import { type GitResult, runGit } from '../../util/git.js';
import { mkdirPrivate } from '../../util/private-files.js';
import { GIT_ALLOWED_PROTOCOLS } from './repo-url.js';

// GIT_ALLOW_PROTOCOL: git itself refuses every other transport (fd::, ext::, git://), submodules too
// UMASK_VAR: the clone lives in the private cache, so git creates its files 0600 and directories 0700
const GIT_ENV = { GIT_ALLOW_PROTOCOL: GIT_ALLOWED_PROTOCOLS, [UMASK_VAR]: '077' };
const CLONE_TIMEOUT_MS = 300_000;

export function validateRepoInput(url: string, ref?: string): void {
  if (url.length === 0 || url.length > 2000) throw new LspgateError('INVALID_INPUT', 'url must be 1..2000 characters');
  if (/[\0\r\n]/.test(url)) throw new LspgateError('INVALID_INPUT', 'url contains control characters');
  if (url.startsWith('-')) throw new LspgateError('INVALID_INPUT', 'url must not start with "-"');
  if (/^ext::/i.test(url)) throw new LspgateError('INVALID_INPUT', 'the ext:: transport is not allowed');
  if (ref !== undefined && (!/^[\w./@+-]{1,200}$/.test(ref) || ref.startsWith('-') || ref.includes('..'))) {
    throw new LspgateError('INVALID_INPUT', `not a valid ref: ${ref.slice(0, 100)}`);
  }
}

export function cloneDir(cacheDir: string, url: string, ref?: string): string {
  const name =
    (
      url
        .replace(/[/\\]+$/, '')
        .split(/[/\\:]/)
        .pop() ?? 'repo'
    )
      .replace(/\.git$/, '')
      .replace(/[^\w.-]/g, '_')
      .slice(0, 60) || 'repo';
  const hash = createHash('sha256')
    .update(`${url}\n${ref ?? ''}`)
    .digest('hex')
    .slice(0, 10);
  return path.join(cacheDir, 'repos', `${name}-${hash}`);
}

/** Clones (or re-clones) the repository; returns the directory and its HEAD commit. */
export async function cloneRepo(cacheDir: string, url: string, ref: string | undefined, signal?: AbortSignal): Promise<{ dir: string; head: string }> {
  validateRepoInput(url, ref);
  const dir = cloneDir(cacheDir, url, ref);
  mkdirPrivate(path.dirname(dir));
  // A fresh clone each time: simpler than reconciling fetches, and the catalog reuses unchanged files by hash.
  if (existsSync(dir)) rmSync(dir, { recursive: true, force: true });
  const git = (args: string[], cwd?: string) => cloneGit(args, cwd, signal);
  // --no-hardlinks: a local source's objects are copied (private, under the umask above), not linked
  // to the source repository's inodes, whose modes are the source's
  // --no-recurse-submodules: a submodule's URL is the repository's choice, not the caller's
  let r = await git(['clone', '--no-hardlinks', '--no-recurse-submodules', '--depth', '1', ...(ref ? ['--branch', ref] : []), '--', url, dir]);
  if (r.exitCode !== 0 && ref) {
    // `--branch` takes branches and tags only; a commit needs a full clone and a checkout.
    rmSync(dir, { recursive: true, force: true });
    r = await git(['clone', '--no-hardlinks', '--no-recurse-submodules', '--', url, dir]);
    if (r.exitCode === 0) r = await git(['checkout', '--detach', ref, '--'], dir);
  }
  if (r.exitCode !== 0) {
    rmSync(dir, { recursive: true, force: true });
    if (signal?.aborted) throw new LspgateError('CANCELLED', 'clone was cancelled');
    const stderr = String(r.stderr ?? '').slice(-800);
    const code = r.timedOut ? 'TIMEOUT' : /not found|does not exist|not a git repository|Could not read/i.test(stderr) ? 'FILE_NOT_FOUND' : 'INVALID_INPUT';
    throw new LspgateError(code, `git clone failed: ${stderr.trim() || r.shortMessage}`, { url, ...(ref ? { ref } : {}) });
  }
  const head = await git(['rev-parse', 'HEAD'], dir);
  return { dir, head: head.exitCode === 0 ? String(head.stdout).trim() : '' };
}

/**
 * git runs under the same watchdog as the language servers (lsp/reaper.ts), in its own process
 * group: a SIGKILLed lspgate used to leave `git clone` and its `git remote-*` helpers running. When
 * git exits, its helpers and the watchdog go with it (runProgram's `watched`).
 */
async function cloneGit(args: string[], cwd: string | undefined, signal: AbortSignal | undefined): Promise<GitResult> {
  const r = await runGit(args, { cwd, env: GIT_ENV, timeout: CLONE_TIMEOUT_MS, signal, wrap: wrapWithReaper });
  return {
    exitCode: r.exitCode,
    stdout: r.stdout,
    stderr: r.stderr
      .split('\n')
      .filter((l) => l.trim() !== '')
      .join('\n'),
    timedOut: r.timedOut,
    shortMessage: r.shortMessage,
  };
}
