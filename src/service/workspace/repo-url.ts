/**
 * What index_repo may clone (`fd::0` hung for the whole clone timeout, and
 * git's other transports run helpers). Allowed: `https://`, `ssh://`, scp-like `user@host:path`,
 * `file://` and local paths; a local source must also be inside a folder lspgate may open
 * (root-policy.ts), which the caller checks. Everything else is INVALID_INPUT. git enforces the
 * same list itself through GIT_ALLOW_PROTOCOL (repo-clone.ts), submodules included.
 */
import path from 'node:path';

import { LspgateError } from '../../errors/errors.js';
import { localPathOfFileUrl } from '../../util/uri.js';

export type RepoSource = { kind: 'remote'; url: string } | { kind: 'local'; path: string };

/** git's own names for the allowed transports (GIT_ALLOW_PROTOCOL). */
export const GIT_ALLOWED_PROTOCOLS = 'https:ssh:file';

export function classifyRepoUrl(url: string, base: string): RepoSource {
  if (/^(https|ssh):\/\/[^/]/i.test(url)) return { kind: 'remote', url };
  if (/^file:\/\//i.test(url)) {
    try {
      return { kind: 'local', path: localPathOfFileUrl(url) };
    } catch (e) {
      throw new LspgateError('INVALID_INPUT', `not a valid file:// URL: ${(e as Error).message}`, { url });
    }
  }
  // scp-like syntax: git reads `host:path` as ssh when no slash comes before the colon
  if (/^[\w.-]+@[\w.-]+:/.test(url)) return { kind: 'remote', url };
  const colon = url.indexOf(':');
  const slash = url.indexOf('/');
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(url) || url.includes('::') || (colon >= 0 && (slash < 0 || colon < slash))) {
    throw new LspgateError(
      'INVALID_INPUT',
      `transport not allowed: ${url.slice(0, 100)} (allowed: https://, ssh://, user@host:path, file:// and local paths)`,
      { url },
    );
  }
  return { kind: 'local', path: path.resolve(base, url) };
}
