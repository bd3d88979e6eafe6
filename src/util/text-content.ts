/**
 * What lspgate reads as text. A file with a source extension may still be binary (a renamed
 * archive, a compiled blob): the catalog's walk skips those, but open_at returned their raw bytes
 * and get_file_outline answered OK on them. git's test: a NUL byte in the
 * first 8,000 bytes means binary.
 */
import { LspgateError } from '../errors/errors.js';

const SNIFF = 8000;

export function looksBinary(text: string): boolean {
  const i = text.indexOf('\0');
  return i >= 0 && i < SNIFF;
}

/** INVALID_INPUT for a binary file, `what` naming it for the caller. */
export function refuseBinary(what: string, text: string): void {
  if (looksBinary(text)) {
    throw new LspgateError('INVALID_INPUT', `${what} is a binary file (it holds NUL bytes), not source text`, { path: what, reason: 'binary' });
  }
}
