/**
 * Server locations → paths, in one place: `locate` is the one conversion of a URI a server sent
 * into a path an answer (or an edit) may use — the real path (symlinks followed), then inside the
 * workspace (relative), external (absolute; quotable only when it is library code), or refused
 * with the reason. Every site that turns a server URI into a path calls it, reads and writes
 * alike, so they agree on what is inside (locations.ts builds answers from it).
 */
import { statSync } from 'node:fs';

import type { Located, LocationRefusal } from '../core/location.js';
import { LspgateError } from '../errors/errors.js';
import { isInside, isSecretPath, toRelative } from '../util/paths.js';
import { containsPrivateKey } from '../util/secret-files.js';
import { canonicalPath } from '../util/symlinks.js';
import { pathOfUri } from '../util/uri.js';
import { diskText } from './disk-texts.js';
import { isLibraryPath } from './library-paths.js';

export type { Located, LocationRefusal } from '../core/location.js';

export interface LocateOptions {
  /**
   * 'read' (default): a location to report — outside the root it is external, on its real path.
   * 'write': a file to edit — refused unless it is a regular file whose real path is inside the root.
   */
  purpose?: 'read' | 'write';
  /** Real paths already found for this answer (one realpath per file, not per location). */
  cache?: Map<string, string>;
  /**
   * Whether the text an answer would quote (or an edit rewrite) holds a private key; asked only for
   * a location whose text may be used. Default: the file on disk.
   */
  holdsKey?: (abs: string) => boolean;
}

/** The one conversion of a server's URI to a path an answer or an edit may use (see the header). */
export function locate(root: string, uri: string, opts: LocateOptions = {}): Located {
  const named = pathOfUri(uri);
  if (named === undefined) return { where: 'refused', reason: 'not_file_uri', file: uri.slice(0, 200), message: `not a file URI: ${uri.slice(0, 200)}` };
  const abs = canonicalPath(root, named, opts.cache);
  const via = abs === named ? {} : { via: named };
  const inside = isInside(root, abs);
  const shown = inside ? toRelative(root, abs) : abs;
  if (isSecretPath(named) || isSecretPath(abs)) return refused('secret_name', abs, shown, `${shown} is a secret file`);
  if (opts.purpose === 'write') {
    const why = unwritable(root, named, abs, inside);
    if (why) return refused(why, abs, shown, `${inside ? shown : named} ${WRITE_REFUSALS[why]}`);
  }
  const library = !inside && isLibraryPath(abs);
  if ((inside || library) && (opts.holdsKey ?? diskHoldsKey)(abs)) return refused('private_key', abs, shown, `${shown} holds a private key`);
  return inside ? { where: 'inside', abs, file: shown, ...via } : { where: 'external', abs, file: abs, library, ...via };
}

const WRITE_REFUSALS: Record<'outside_root' | 'link_out_of_root' | 'not_regular_file' | 'missing', string> = {
  outside_root: 'is outside the workspace',
  link_out_of_root: 'is a symlink to a file outside the workspace',
  not_regular_file: 'is not a regular file',
  missing: 'does not exist',
};

function unwritable(root: string, named: string, abs: string, inside: boolean): keyof typeof WRITE_REFUSALS | undefined {
  if (!inside) return isInside(root, named) ? 'link_out_of_root' : 'outside_root';
  const st = statSync(abs, { throwIfNoEntry: false });
  if (!st) return 'missing';
  return st.isFile() ? undefined : 'not_regular_file';
}

function refused(reason: LocationRefusal, abs: string, file: string, message: string): Located {
  return { where: 'refused', reason, abs, file, message };
}

/** The coded error for a refused location (an edit refuses the whole edit with it). */
export function refusalError(r: Extract<Located, { where: 'refused' }>, what: string): LspgateError {
  const details = { path: r.file, reason: r.reason };
  switch (r.reason) {
    case 'secret_name':
    case 'private_key':
      return new LspgateError('SECRET_FILE', `${what}: ${r.message}; nothing is changed`, details);
    case 'outside_root':
    case 'link_out_of_root':
      return new LspgateError('PATH_OUTSIDE_WORKSPACE', `${what}: ${r.message}; nothing is changed`, details);
    case 'missing':
      return new LspgateError('FILE_NOT_FOUND', `${what}: ${r.message}; nothing is changed`, details);
    case 'not_regular_file':
      return new LspgateError('INVALID_INPUT', `${what}: ${r.message}; nothing is changed`, details);
    case 'not_file_uri':
      return new LspgateError('NOT_SUPPORTED', `${what}: ${r.message}; lspgate edits files only`, details);
  }
}

/** A private key in the file on disk (the text a location outside any open document is measured in). */
function diskHoldsKey(abs: string): boolean {
  const text = diskText(abs);
  return text !== undefined && containsPrivateKey(text);
}
