/**
 * The errors a caller can cause naming a symbol (by name, id or position): listed in each such
 * operation's contract and provoked by the client matrix (test/helpers/mcp-client-cases.mjs).
 */
import type { ErrorCode } from '../errors/errors.js';

export const SYMBOL_CALLER_ERRORS: readonly ErrorCode[] = ['SYMBOL_NOT_FOUND', 'AMBIGUOUS_SYMBOL', 'FILE_NOT_FOUND', 'PATH_OUTSIDE_WORKSPACE'];
