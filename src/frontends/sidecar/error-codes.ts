/**
 * lspgate error code → JSON-RPC error code for the sidecar. Programs should switch on
 * `error.data.code` (the lspgate code); the numeric code follows JSON-RPC where a standard one
 * exists (-32602 InvalidParams, -32601 MethodNotFound, -32603 InternalError), LSP's for
 * cancellation and content-modified (-32800, -32801), and the implementation-defined server-error
 * range otherwise. -32001/-32002 (LSP UnknownErrorCode / ServerNotInitialized) and -32096..-32099
 * (vscode-jsonrpc's own) are avoided.
 */
import type { ErrorCode } from '../../errors/errors.js';

export const JSONRPC_ERROR_CODES: Partial<Record<ErrorCode, number>> = {
  INVALID_INPUT: -32602,
  UNKNOWN_OPERATION: -32601,
  INTERNAL: -32603,
  CANCELLED: -32800,
  CONTENT_MODIFIED: -32801,
  PATH_OUTSIDE_WORKSPACE: -32010,
  FILE_NOT_FOUND: -32011,
  SECRET_FILE: -32012,
  SYMBOL_NOT_FOUND: -32013,
  AMBIGUOUS_SYMBOL: -32014,
  UNSUPPORTED_LANGUAGE: -32015,
  WORKSPACE_NOT_FOUND: -32016,
  SERVER_NOT_INSTALLED: -32020,
  SERVER_START_FAILED: -32021,
  SERVER_CRASHED: -32022,
  SERVER_FAILED: -32023,
  NOT_READY: -32024,
  TIMEOUT: -32025,
  NOT_SUPPORTED: -32030,
  LIMIT_EXCEEDED: -32031,
  INDEX_MISMATCH: -32032,
  INDEX_UNAVAILABLE: -32033,
  DAEMON_FAILED: -32040,
  UNSAFE_DIRECTORY: -32041,
  DISK_FULL: -32050,
  READ_ONLY: -32051,
};

/** Codes added to ERROR_CODES later and not yet in the table answer the generic server error. */
export const GENERIC_SERVER_ERROR = -32000;

export function jsonRpcCodeFor(code: string): number {
  return JSONRPC_ERROR_CODES[code as ErrorCode] ?? GENERIC_SERVER_ERROR;
}
