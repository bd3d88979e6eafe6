/**
 * The MCP client matrix, built from each operation's own `clientCases`: every call the 1.x and 2.x
 * TypeScript SDK clients and the Python SDK make (test/integration/mcp-client-matrix.test.ts,
 * scripts/python-client-matrix.sh), on a copy of fixtures/ts-app with a secret file, a text file
 * and a tiny git repository beside it. Besides its own cases, every operation gets the two errors
 * any caller can cause anywhere: an unknown field and an unopened workspace.
 */
import path from 'node:path';

import type { ErrorCode } from '../errors/errors.js';
import type { ClientCases, ClientCaseWorkspace, Operation } from './types.js';

/** One call; `code` undefined = a success result with structured content. */
export interface ClientCall {
  tool: string;
  args: Record<string, unknown>;
  code?: ErrorCode;
}

/** What a caller can get wrong naming a symbol in the matrix workspace (fixtures/ts-app). */
export function symbolErrorCases(extra: Record<string, unknown> = {}): NonNullable<ClientCases['errors']> {
  return [
    { args: { symbol: 'noSuchSymbolAnywhere', ...extra }, code: 'SYMBOL_NOT_FOUND' },
    // ts-app declares `describe` on several classes with no leader among them
    { args: { symbol: 'describe', ...extra }, code: 'AMBIGUOUS_SYMBOL' },
    { args: { file: 'src/missing.ts', line: 1, ...extra }, code: 'FILE_NOT_FOUND' },
    { args: { file: '../../etc/passwd', line: 1, ...extra }, code: 'PATH_OUTSIDE_WORKSPACE' },
    { args: { file: 'src/util/strings.ts', line: 9999, ...extra }, code: 'INVALID_INPUT' },
  ];
}

/** Every call of the matrix, in table order; the operations marked `last` at the very end. */
export function clientMatrix(ops: readonly Operation[], ws: ClientCaseWorkspace): ClientCall[] {
  const own: ClientCall[] = [];
  const generic: ClientCall[] = [];
  const last: ClientCall[] = [];
  for (const op of ops) {
    const cases = typeof op.clientCases === 'function' ? op.clientCases(ws) : op.clientCases;
    const first = cases.ok[0];
    if (first === undefined) throw new Error(`${op.name}: clientCases.ok is empty`);
    const calls = [...cases.ok.map((args) => ({ tool: op.name, args })), ...(cases.errors ?? []).map((e) => ({ tool: op.name, ...e }))];
    (cases.last ? last : own).push(...calls);
    generic.push({ tool: op.name, args: { ...first, bogus_field: 1 }, code: 'INVALID_INPUT' });
    if (!cases.opensWorkspace) generic.push({ tool: op.name, args: { ...first, workspace: path.join(ws.folder, 'not-open') }, code: 'WORKSPACE_NOT_FOUND' });
  }
  return [...own, ...generic, ...last];
}
