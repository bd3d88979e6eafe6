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
import type { CallToolResult } from '@modelcontextprotocol/server';
import { toLspgateError } from '../../errors/errors.js';

export const ERROR_META_KEY = 'lspgate/error';

export function errorResult(e: unknown): CallToolResult {
  const payload = toLspgateError(e).toPayload();
  return {
    isError: true,
    content: [{ type: 'text', text: JSON.stringify(payload, null, 2) }],
    _meta: { [ERROR_META_KEY]: payload as unknown as Record<string, unknown> },
  };
}
