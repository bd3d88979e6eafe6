/**
 * lspgate's byte offsets (symbol ids, get_symbol's slices, content hashes) are offsets into a
 * file's UTF-8 bytes. A file in another encoding (Latin-1: `é` is the single byte 0xE9) decodes
 * with replacement characters whose UTF-8 re-encoding is longer than the real bytes, so every
 * offset after the first such byte pointed at the wrong bytes while get_symbol said
 * `content_verified: true`. Such files are refused with a clear error.
 */
import { LspgateError } from '../errors/errors.js';

const strict = new TextDecoder('utf-8', { fatal: true });

/** The text of UTF-8 `bytes`; INVALID_INPUT naming the first bad byte otherwise. */
export function decodeUtf8(bytes: Buffer, what: string): string {
  try {
    return strict.decode(bytes);
  } catch {
    const at = firstInvalidByte(bytes);
    throw new LspgateError(
      'INVALID_INPUT',
      `${what} is not UTF-8 text (invalid byte 0x${bytes[at]?.toString(16) ?? '??'} at offset ${at}); lspgate reads source files as UTF-8 only`,
      {
        path: what,
        reason: 'encoding',
        offset: at,
      },
    );
  }
}

function firstInvalidByte(bytes: Buffer): number {
  // the longest prefix that is valid UTF-8 or ends inside a character (stream mode)...
  let lo = 0;
  let hi = bytes.length;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (validPrefix(bytes.subarray(0, mid), true)) lo = mid;
    else hi = mid - 1;
  }
  // ...then the bad sequence starts at `lo`, or at the lead byte of a character cut there
  if (validPrefix(bytes.subarray(0, lo), false)) return lo;
  let start = lo - 1;
  while (start > 0 && (bytes[start]! & 0xc0) === 0x80) start--;
  return start;
}

function validPrefix(b: Buffer, stream: boolean): boolean {
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(b, { stream });
    return true;
  } catch {
    return false;
  }
}
