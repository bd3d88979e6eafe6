import { hash } from 'node:crypto';

/** sha256 (hex) of bytes or of a string's UTF-8 encoding (one-shot: the catalog hashes every symbol's bytes). */
export function sha256(data: Buffer | string): string {
  return hash('sha256', data, 'hex');
}
