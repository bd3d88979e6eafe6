import { createHash } from 'node:crypto';

/** sha256 (hex) of bytes or of a string's UTF-8 encoding. */
export function sha256(data: Buffer | string): string {
  return createHash('sha256').update(data).digest('hex');
}
