/**
 * Token budgets for list results: `max_results` and `max_tokens` (≈ bytes/4 of the serialized
 * items). A page stops at the first budget hit and hands back an opaque cursor (base64url JSON of
 * the offset and a hash of the query) that continues exactly there — and only for the same query.
 */
import { createHash } from 'node:crypto';

import { LspgateError } from '../errors/errors.js';
import type { CallMeta } from './call-meta.js';

interface CursorBody {
  o: number;
  q: string;
}

export function queryHash(query: unknown): string {
  return createHash('sha256').update(JSON.stringify(query)).digest('hex').slice(0, 16);
}

export function encodeCursor(offset: number, hash: string): string {
  return Buffer.from(JSON.stringify({ o: offset, q: hash } satisfies CursorBody)).toString('base64url');
}

/** Offset a cursor points at; INVALID_INPUT when it is malformed or belongs to another query. */
export function decodeCursor(cursor: string | undefined, hash: string): number {
  if (cursor === undefined || cursor === '') return 0;
  let body: Partial<CursorBody>;
  try {
    body = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as Partial<CursorBody>;
  } catch {
    throw new LspgateError('INVALID_INPUT', 'cursor is not one lspgate issued');
  }
  if (typeof body !== 'object' || body === null || typeof body.o !== 'number' || !Number.isInteger(body.o) || body.o < 0) {
    throw new LspgateError('INVALID_INPUT', 'cursor is not one lspgate issued');
  }
  if (body.q !== hash) throw new LspgateError('INVALID_INPUT', 'cursor belongs to a different query; repeat the same query to continue');
  return body.o;
}

export function tokensOf(item: unknown): number {
  return Math.ceil(Buffer.byteLength(JSON.stringify(item)) / 4);
}

/**
 * One page of `items` from `offset`, within `maxResults` items and `maxTokens` tokens (at least
 * one item, so a huge single item still comes back). Marks `_meta` truncated with the next cursor.
 */
export function paginate<T>(items: T[], opts: { offset: number; maxResults: number; maxTokens?: number; hash: string; meta: CallMeta; total?: number }): T[] {
  const page: T[] = [];
  let tokens = 0;
  let stoppedBy: 'max_results' | 'max_tokens' | undefined;
  for (let i = opts.offset; i < items.length; i++) {
    if (page.length >= opts.maxResults) {
      stoppedBy = 'max_results';
      break;
    }
    // Measured only under a token budget: serialising each item was a tenth of a search_symbols call.
    const t = opts.maxTokens === undefined ? 0 : tokensOf(items[i]);
    if (opts.maxTokens !== undefined && page.length > 0 && tokens + t > opts.maxTokens) {
      stoppedBy = 'max_tokens';
      break;
    }
    tokens += t;
    page.push(items[i]!);
  }
  const hasMore = opts.offset + page.length < (opts.total ?? items.length);
  if (hasMore) {
    opts.meta.truncate(encodeCursor(opts.offset + page.length, opts.hash));
    const reason = stoppedBy ?? 'max_results';
    opts.meta.limit({ limit: reason, value: reason === 'max_tokens' ? opts.maxTokens! : opts.maxResults });
  }
  return page;
}
