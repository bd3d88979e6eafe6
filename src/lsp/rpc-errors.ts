/** LSP/JSON-RPC failures → LspgateError, sorted by error code (never by message text). */
import { ErrorCodes, ResponseError } from 'vscode-jsonrpc/node';
import { LSPErrorCodes } from 'vscode-languageserver-protocol';

import { LspgateError } from '../errors/errors.js';

export function fromResponseError(e: ResponseError<unknown>, serverId: string, method: string): LspgateError {
  const details = { server: serverId, method, lspCode: e.code, lspMessage: e.message };
  switch (e.code) {
    case ErrorCodes.MethodNotFound:
      return new LspgateError('NOT_SUPPORTED', `${serverId} does not support ${method}`, details);
    case LSPErrorCodes.ContentModified:
    case LSPErrorCodes.ServerCancelled:
    case LSPErrorCodes.RequestCancelled:
      return new LspgateError('CONTENT_MODIFIED', `${serverId} dropped ${method} (${e.code}): the document changed or the server is busy; ask again`, details);
    default:
      return new LspgateError('INTERNAL', `${serverId} failed ${method}: ${e.message} (LSP error ${e.code})`, details);
  }
}

export function isResponseError(e: unknown): e is ResponseError<unknown> {
  return e instanceof ResponseError;
}

/**
 * vscode-jsonrpc's own codes for a failed stream (a write to a dead pipe, a disposed connection):
 * the server did not answer anything, the connection is gone.
 */
export function isTransportError(e: ResponseError<unknown>): boolean {
  return e.code === ErrorCodes.MessageWriteError || e.code === ErrorCodes.PendingResponseRejected || e.code === ErrorCodes.ConnectionInactive;
}
