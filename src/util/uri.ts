/**
 * The one place file URIs and paths are converted (vscode-uri, as the servers' own clients do).
 */
import { fileURLToPath } from 'node:url';

import { URI } from 'vscode-uri';

import { LspgateError } from '../errors/errors.js';

export function fileUri(absPath: string): string {
  return URI.file(absPath).toString();
}

/** The absolute path of a `file:` URI; undefined for any other scheme (untitled:, jdt:, a library's virtual document). */
export function pathOfUri(uri: string): string | undefined {
  let u: URI;
  try {
    u = URI.parse(uri, true);
  } catch {
    return undefined;
  }
  return u.scheme === 'file' ? u.fsPath : undefined;
}

/** The absolute path of a `file:` URI a server sent where only files can be (INTERNAL otherwise). */
export function uriToPath(uri: string): string {
  const p = pathOfUri(uri);
  if (p === undefined) throw new LspgateError('INTERNAL', `not a file URI: ${uri.slice(0, 200)}`);
  return p;
}

/**
 * The local path of a `file://` URL a caller gave (index_repo's source), as git reads it: Node's
 * strict reading, which refuses a remote host (`file://server/share`) and encoded slashes instead of
 * making a UNC-style path of them. Not for server locations (service/locate.ts is their one way in).
 */
export function localPathOfFileUrl(url: string): string {
  return fileURLToPath(url);
}

/** The file of a module of lspgate's own, by its `import.meta.url` (always a `file:` URL Node made). */
export function modulePath(importMetaUrl: string): string {
  return fileURLToPath(importMetaUrl);
}
