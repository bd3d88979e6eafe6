/**
 * A coded lspgate error as the daemon's JSON-RPC answer: the JSON-RPC code for its kind, its
 * message, and the lspgate code and details in `data`, so a client rebuilds the same error.
 */
import { ResponseError } from 'vscode-jsonrpc/node';

import { toLspgateError } from '../errors/errors.js';
import { jsonRpcCodeFor } from '../frontends/sidecar/error-codes.js';

export interface RpcErrorBody {
  code: number;
  message: string;
  data: unknown;
}

/** The JSON-RPC error object for `e` (a ResponseError passes through unchanged). */
export function rpcErrorBody(e: unknown): RpcErrorBody {
  if (e instanceof ResponseError) return { code: e.code, message: e.message, data: e.data };
  const err = toLspgateError(e);
  return { code: jsonRpcCodeFor(err.code), message: err.message, data: { code: err.code, details: err.details ?? {} } };
}

export function rpcError(e: unknown): ResponseError<unknown> {
  const body = rpcErrorBody(e);
  return new ResponseError(body.code, body.message, body.data);
}
