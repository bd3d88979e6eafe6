/**
 * One connection to the published index. `pg` is the client: pure JavaScript (its optional
 * pg-native peer is never installed), no install script. Every failure leaves here as a coded
 * LspgateError whose text went through redactText: the URL's password never reaches a log, an
 * answer or an error. A reader's session is read-only (`SET default_transaction_read_only`) on top
 * of the read-only role docs/architecture.md asks for.
 */
import type pg from 'pg';

import { LspgateError } from '../../errors/errors.js';
import { redactText, redactUrl } from './url.js';

/** How long a connection attempt may take before the index counts as unreachable. */
export const CONNECT_TIMEOUT_MS = 5000;
/** A reader's queries: a stuck server must not hold the first answer for long. */
const READ_STATEMENT_TIMEOUT_MS = 30_000;

export interface IndexConnection {
  readonly client: pg.Client;
  /** The URL as it may be said anywhere (password masked). */
  readonly shown: string;
  query<R extends pg.QueryResultRow = pg.QueryResultRow>(text: string, values?: unknown[]): Promise<pg.QueryResult<R>>;
  close(): Promise<void>;
}

/** SQLSTATE classes that mean "this role may not write". */
const NOT_WRITABLE = new Set(['42501', '25006']);

export function indexError(e: unknown, url: string, doing: string): LspgateError {
  if (e instanceof LspgateError) return e;
  const err = e as { code?: string; message?: string };
  const message = redactText(String(err.message ?? e), url);
  const shown = redactUrl(url);
  if (err.code && NOT_WRITABLE.has(err.code)) {
    return new LspgateError(
      'READ_ONLY',
      `the index at ${shown} refused a write while ${doing}: ${message} (publish with a role that owns the lspgate schema)`,
      {
        sqlstate: err.code,
      },
    );
  }
  if (err.code === '42P01' || err.code === '3F000') {
    return new LspgateError('INDEX_UNAVAILABLE', `no published index at ${shown} (${message}); run \`lspgate publish --to <url>\` first`, {
      sqlstate: err.code,
    });
  }
  return new LspgateError('INDEX_UNAVAILABLE', `the index at ${shown} could not be used while ${doing}: ${message}`, {
    ...(err.code ? { sqlstate: err.code } : {}),
  });
}

export async function connectIndex(url: string, opts: { readOnly: boolean }): Promise<IndexConnection> {
  const shown = redactUrl(url);
  // loaded here, not with the module: a process that never reads a published index does not load pg's ~35 modules
  const { Client } = (await import('pg')).default;
  let client: pg.Client;
  try {
    client = new Client({
      connectionString: url,
      connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
      application_name: opts.readOnly ? 'lspgate-reader' : 'lspgate-publish',
      ...(opts.readOnly ? { statement_timeout: READ_STATEMENT_TIMEOUT_MS } : {}),
    });
  } catch (e) {
    throw indexError(e, url, 'reading its address');
  }
  // an error after connect (the server went away) must not become an uncaught 'error' event
  client.on('error', () => undefined);
  try {
    await client.connect();
    if (opts.readOnly) await client.query('SET default_transaction_read_only = on');
  } catch (e) {
    await client.end().catch(() => undefined);
    throw indexError(e, url, 'connecting');
  }
  return {
    client,
    shown,
    query: async (text, values) => {
      try {
        return await client.query(text, values);
      } catch (e) {
        throw indexError(e, url, 'querying');
      }
    },
    close: () => client.end().catch(() => undefined),
  };
}
