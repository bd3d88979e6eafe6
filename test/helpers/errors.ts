import { LspgateError } from '../../src/errors/errors.js';

/** The LspgateError a promise rejects with; any other outcome fails the test. */
export async function caught(p: Promise<unknown>): Promise<LspgateError> {
  try {
    await p;
  } catch (e) {
    if (e instanceof LspgateError) return e;
    throw e;
  }
  throw new Error('expected a rejection');
}
