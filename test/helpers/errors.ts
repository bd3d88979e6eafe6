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

/** The code of the LspgateError a promise rejects with, or 'none' when it resolves; any other rejection fails the test. */
export async function errorCode(p: Promise<unknown>): Promise<string> {
  try {
    await p;
    return 'none';
  } catch (e) {
    if (e instanceof LspgateError) return e.code;
    throw e;
  }
}
