// Types for the plain-JS client matrix cases (mcp-client-cases.mjs stays JS so that
// scripts/python-client-matrix.sh can build the same table under Node).
import type { ErrorCode } from '../../src/errors/errors.js';
import type { MatrixWorkspace } from './mcp-matrix-cases.mjs';

export interface ErrorCall {
  args: Record<string, unknown>;
  code: ErrorCode;
}

/** `ok` calls succeed with structured content; `errors` fail with their code; `last` runs after every other call. */
export interface ClientCases {
  ok: Record<string, unknown>[];
  errors?: ErrorCall[];
  last?: boolean;
}

/** One call; `code` undefined = a success result with structured content. */
export interface ClientCall {
  tool: string;
  args: Record<string, unknown>;
  code?: ErrorCode;
}

export declare const CLIENT_CASES: Readonly<Record<string, ClientCases | ((ws: MatrixWorkspace) => ClientCases)>>;
export declare function symbolErrorCases(extra?: Record<string, unknown>): ErrorCall[];
export declare function casesOf(name: string, ws: MatrixWorkspace): ClientCases;
export declare function clientMatrix(ops: readonly { name: string; opensWorkspace?: boolean }[], ws: MatrixWorkspace): ClientCall[];
