/**
 * What a server cannot see, and the refusal it earns. A reference search only covers the files the
 * server loads: pyright loads a project config's `include` minus its `exclude`, tsserver the files
 * its tsconfigs take, so a `tests/` the config leaves out holds callers no reference search finds; gopls builds no package with a file
 * its build constraints exclude ("no package metadata"), so neither its diagnostics nor its
 * references exist. An answer resting on such a search says so, and an apply that trusts it (a
 * delete, a signature change) is refused as unchecked until the caller accepts that.
 */
import path from 'node:path';

import { languageProfile } from '../../adapters/languages.js';
import { globMatcher } from '../../catalog/glob.js';
import { LspgateError } from '../../errors/errors.js';
import type { ServiceCall } from '../call.js';

/** Why the file's server has no answer at all for it (its profile reads the server's error), or undefined. */
export function noProjectReason(e: unknown, language: string, text: string, file: string): string | undefined {
  const message = e instanceof LspgateError ? String(e.details?.lspMessage ?? e.message) : '';
  return languageProfile(language)?.project.noProjectReason?.(message, text, file);
}

/** A pyright include/exclude entry (a path or a glob, relative to the root) as a matcher of relative paths. */
function entryMatcher(entry: string): (rel: string) => boolean {
  const e = entry.replace(/^\.\/?/, '').replace(/\/+$/, '');
  if (!e) return () => true;
  if (/[*?[]/.test(e)) {
    const m = globMatcher(e, { wholePath: true });
    return (rel) => m(rel) || rel.split('/').some((_, i, parts) => m(parts.slice(0, i + 1).join('/')));
  }
  return (rel) => rel === e || rel.startsWith(`${e}/`);
}

/**
 * The workspace's folders holding cataloged files of `language` its server does not load (the
 * profile's serverScope: pyright's `include` minus `exclude`), with the config that says so. Empty
 * when the server sees every cataloged file (or the profile cannot tell).
 */
export function unseenFolders(call: ServiceCall, language: string): { folders: string[]; config?: string } {
  const profile = languageProfile(language)?.project;
  if (!profile?.serverScope) return { folders: [] };
  const files = [...call.workspace.catalog.files()].filter(([, entry]) => entry.language === language).map(([rel]) => rel);
  const scope = profile.serverScope(call.root, files);
  if (!scope) return { folders: [] };
  const included = scope.include.map(entryMatcher);
  const excluded = scope.exclude.map(entryMatcher);
  const seen = scope.sees ?? ((rel: string) => (!included.length || included.some((m) => m(rel))) && !excluded.some((m) => m(rel)));
  const folders = new Set<string>();
  for (const rel of files) {
    if (seen(rel)) continue;
    const dir = path.posix.dirname(rel);
    // the outermost folder the server does not see: `tests/` rather than each of its subfolders
    const parts = dir === '.' ? [] : dir.split('/');
    const top = parts.findIndex((_, i) => !seen(`${parts.slice(0, i + 1).join('/')}/${path.posix.basename(rel)}`));
    folders.add(dir === '.' ? rel : top >= 0 ? parts.slice(0, top + 1).join('/') + '/' : `${dir}/`);
  }
  return { folders: [...folders].sort(), config: scope.config };
}

/** The warning a reference answer carries when its server cannot see `folders`. */
export function unseenWarning(folders: string[], config: string | undefined): string {
  const shown = folders.slice(0, 5).join(', ') + (folders.length > 5 ? `, … (${folders.length})` : '');
  return `the server does not load ${shown} (${config ?? 'its project config'} leaves them out): references there are not found`;
}

/**
 * Refuses an apply that rests on a reference search blind to `folders` (a delete, a signature
 * change), unless the caller accepted it; `accept` names the field that does.
 */
export function refuseUnseen(what: string, folders: string[], config: string | undefined, accept: string): void {
  if (!folders.length) return;
  throw new LspgateError(
    'INVALID_INPUT',
    `${what} is unchecked: ${unseenWarning(folders, config)}; nothing was written: check those folders, or apply with ${accept}: true`,
    { unseen_folders: folders, unchecked: folders.map((folder) => ({ folder, reason: `not loaded by the server (${config ?? 'project config'})` })) },
  );
}
