/**
 * pyright has no start-up signal: its first documentSymbol answer is the signal. The
 * probe asks it about an open document within what is left of the readiness budget.
 */
import { LspgateError } from '../errors/errors.js';

export async function probeFirstReply(docUri: string | undefined, ask: (uri: string) => Promise<unknown>): Promise<'ready' | 'indexing'> {
  // Nothing open means nothing to probe; the first request's answer marks readiness then.
  if (!docUri) return 'ready';
  try {
    await ask(docUri);
  } catch (e) {
    if (e instanceof LspgateError && e.code === 'TIMEOUT') return 'indexing';
    throw e;
  }
  return 'ready';
}
