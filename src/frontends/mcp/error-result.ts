/**
 * The MCP shape of an LspgateError: an `isError` tool result whose text is the error JSON
 * `{error, code, details}`, with the same object under `_meta["lspgate/error"]` for programs.
 *
 * No `structuredContent` on purpose. The 2025-11-25 spec says structured results MUST conform to
 * the tool's output schema, and the 1.x TypeScript SDK client and the MCP Inspector enforce it on
 * error results too: an error payload there is replaced by "-32602 Structured content does not
 * match the tool's output schema", so the model never saw the code. Widening every output schema
 * to `anyOf [result, error]` would also pass those clients, but would tell every client and model
 * that an error object is a valid success; text + `_meta` passes every client and keeps the
 * schemas exact.
 */
import { type CallToolResult, ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/server';

import { toLspgateError } from '../../errors/errors.js';
import { jsonSafeText } from '../../util/control-chars.js';

export const ERROR_META_KEY = 'lspgate/error';

export function errorResult(e: unknown): CallToolResult {
  const payload = toLspgateError(e).toPayload();
  return {
    isError: true,
    content: [{ type: 'text', text: jsonSafeText(JSON.stringify(payload, null, 2)) }],
    _meta: { [ERROR_META_KEY]: payload as unknown as Record<string, unknown> },
  };
}

/**
 * Codes a caller causes by what it asked, not-found included: -32602. (The 2026-07-28 spec answers a
 * missing resource with -32602 and `data.uri` on every revision; the SDK maps -32002 to it too.)
 */
const CALLER = new Set([
  'SYMBOL_NOT_FOUND',
  'FILE_NOT_FOUND',
  'WORKSPACE_NOT_FOUND',
  'INVALID_INPUT',
  'PATH_OUTSIDE_WORKSPACE',
  'SECRET_FILE',
  'AMBIGUOUS_SYMBOL',
  'UNSUPPORTED_LANGUAGE',
  'LIMIT_EXCEEDED',
]);

/**
 * Resources and prompts have no isError result: their failures are JSON-RPC errors. The lspgate
 * payload rides in `data` (switch on `data.code`), the message starts with the code for people.
 */
export function protocolErrorOf(e: unknown, uri?: string): ProtocolError {
  const payload = toLspgateError(e).toPayload();
  const message = `${payload.code}: ${payload.error}`;
  const data = { ...payload, ...(uri ? { uri } : {}) };
  if (CALLER.has(payload.code)) return new ProtocolError(ProtocolErrorCode.InvalidParams, message, data);
  return new ProtocolError(ProtocolErrorCode.InternalError, message, data);
}
