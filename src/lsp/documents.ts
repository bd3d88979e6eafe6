/** Reading documents for the server: size limit, hash, languageId, URI. */
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';

import type { ServerEntry } from '../config/schema.js';
import { LspgateError } from '../errors/errors.js';
import { containsPrivateKey } from '../util/secret-files.js';
import { refuseBinary } from '../util/text-content.js';
import { decodeUtf8 } from '../util/utf8-text.js';

export { sha256 } from '../util/hash.js';
export { fileUri, uriToPath } from '../util/uri.js';

export function languageIdFor(entry: ServerEntry, absPath: string): string {
  const ext = path.extname(absPath).toLowerCase();
  return entry.languageIds[ext] ?? entry.languages[0]!;
}

/**
 * The text to send: `text` if given, else the file on disk; LIMIT_EXCEEDED over `maxBytes`.
 *
 * Synchronous on purpose: a file someone waits for is read in the same turn of the event loop as
 * the call that needs it, so its didOpen is sent at once. Read through the thread pool (stat,
 * then open/fstat/read/close), each step waited for a pool thread and then for the event loop to
 * come round again — behind the catalog's answers being parsed and indexed, and on a loaded
 * machine behind the scheduler: 20-130 ms before a file's first interactive didOpen during a cold
 * catalog (docs/performance.md "Sessions and the daemon"), against ~0.1 ms to read a page-cached file of up to maxFileBytes.
 */
export function documentText(absPath: string, text: string | undefined, maxBytes: number): string {
  if (text !== undefined) {
    const bytes = Buffer.byteLength(text, 'utf8');
    if (bytes > maxBytes) throw tooBig(absPath, bytes, maxBytes);
    return refuseKeys(absPath, text);
  }
  let bytes: Buffer;
  try {
    const st = statSync(absPath);
    if (!st.isFile()) throw new LspgateError('INVALID_INPUT', `not a file: ${absPath}`, { path: absPath });
    if (st.size > maxBytes) throw tooBig(absPath, st.size, maxBytes);
    bytes = readFileSync(absPath);
  } catch (e) {
    if (e instanceof LspgateError) throw e;
    throw new LspgateError('FILE_NOT_FOUND', `cannot read ${absPath}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`, { path: absPath });
  }
  // grown past the limit between the stat and the read
  if (bytes.length > maxBytes) throw tooBig(absPath, bytes.length, maxBytes);
  return refuseKeys(absPath, decodeUtf8(bytes, path.basename(absPath)));
}

/**
 * Every file a server is given passes here (catalog, outline, navigation): one holding a private
 * key is SECRET_FILE whatever its name, so the key reaches neither a server nor an answer; a
 * binary one is INVALID_INPUT (text-content.ts).
 */
function refuseKeys(absPath: string, text: string): string {
  refuseBinary(path.basename(absPath), text);
  if (containsPrivateKey(text)) {
    throw new LspgateError('SECRET_FILE', `refusing a file that holds a private key: ${path.basename(absPath)}`, {
      path: absPath,
      reason: 'private key block',
    });
  }
  return text;
}

function tooBig(absPath: string, bytes: number, maxBytes: number): LspgateError {
  return new LspgateError(
    'LIMIT_EXCEEDED',
    `${path.basename(absPath)} is ${bytes} bytes, over the ${maxBytes}-byte limit for files opened in a language server`,
    {
      limit: 'maxFileBytes',
      max: maxBytes,
      actual: bytes,
      path: absPath,
    },
  );
}
