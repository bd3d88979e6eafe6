/**
 * ContentModified / ServerCancelled (LSP 3.17: "the client should re-send the request if it still
 * needs the result"): re-sync the document, retry once, then give the error.
 */
import { LspgateError } from '../errors/errors.js';

export async function withContentModifiedRetry<R>(ask: () => Promise<R>, resync: () => Promise<void>): Promise<R> {
  try {
    return await ask();
  } catch (e) {
    if (!isContentModified(e)) throw e;
    await resync();
    try {
      return await ask();
    } catch (e2) {
      if (isContentModified(e2)) {
        throw new LspgateError('CONTENT_MODIFIED', `${e2.message} (after one re-sync and retry)`, { ...e2.details, retried: true });
      }
      throw e2;
    }
  }
}

function isContentModified(e: unknown): e is LspgateError {
  return e instanceof LspgateError && e.code === 'CONTENT_MODIFIED';
}

/** The document a request is about, if its params name one. */
export function requestDocumentUri(params: unknown): string | undefined {
  const p = params as { textDocument?: { uri?: string }; item?: { uri?: string } } | undefined;
  return p?.textDocument?.uri ?? p?.item?.uri;
}
