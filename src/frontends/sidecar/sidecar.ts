/**
 * `lspgate sidecar`: JSON-RPC 2.0 over stdio with Content-Length framing (vscode-jsonrpc), for
 * programs. `initialize` lists the operations with their JSON Schemas; every operation is a method
 * of the same name taking the same params and answering the structured result; `shutdown` then
 * `exit` end it (as in LSP); `$/cancelRequest` aborts the call. Errors are ResponseErrors whose
 * `data` is `{ code, details }` with the lspgate code.
 */
import type { Readable, Writable } from 'node:stream';

import {
  type CancellationToken,
  createMessageConnection,
  type MessageConnection,
  ResponseError,
  StreamMessageReader,
  StreamMessageWriter,
} from 'vscode-jsonrpc/node';

import { LspgateError, toLspgateError } from '../../errors/errors.js';
import { describeOperation } from '../../operations/describe.js';
import { DEFAULT_MAX_MS, DEFAULT_WAIT_MS } from '../../operations/runner.js';
import type { Logger } from '../../util/logger.js';
import type { FrontendGateway } from '../host.js';
import { inputJsonSchema, outputJsonSchema } from '../input-fields.js';
import { installLifecycle } from '../lifecycle.js';
import { type ProgressRelay, relayProgress } from '../server-progress.js';
import { packageVersion } from '../version.js';
import { guardClientInput } from './client-framing.js';
import { JSONRPC_ERROR_CODES, jsonRpcCodeFor } from './error-codes.js';

/** A param the sidecar reads itself (never passed to the operation): `$/progress` notifications go to this token. */
export const PROGRESS_TOKEN_PARAM = '_progressToken';

export interface SidecarHandle {
  connection: MessageConnection;
  /** Resolves when the client sent `exit` (0 if `shutdown` came first, else 1) or closed the stream (0). */
  exited: Promise<number>;
}

export function serveSidecar(gateway: FrontendGateway, input: Readable, output: Writable): SidecarHandle {
  const logger = gateway.context.logger.child('sidecar');
  let resolveExit!: (code: number) => void;
  const exited = new Promise<number>((r) => (resolveExit = r));
  const guarded = guardClientInput(input, output, (reason) => {
    logger.warn(`closing: the client broke the message framing (${reason})`);
    resolveExit(1);
  });
  const connection = createMessageConnection(new StreamMessageReader(guarded), new StreamMessageWriter(output));
  let shutdownRequested = false;

  connection.onRequest('initialize', () => describe(gateway));
  connection.onRequest('shutdown', async () => {
    shutdownRequested = true;
    await gateway.close();
    return null;
  });
  connection.onNotification('exit', () => resolveExit(shutdownRequested ? 0 : 1));
  serveOperations(connection, gateway, logger, { isOpen: () => !shutdownRequested });
  // The client closing its end is a normal end (as stdin EOF is in every stdio mode); only an
  // `exit` without `shutdown` is the LSP-style failure status 1.
  connection.onClose(() => resolveExit(0));
  connection.onError(([e]: [Error, unknown, number | undefined]) => logger.warn('sidecar stream error', e));
  connection.listen();
  return { connection, exited };
}

export interface ServeOperationsOptions {
  /** False after `shutdown`: later calls answer an error. */
  isOpen?: () => boolean;
  /** Answer `{ result, format, text }` (a RemoteGateway's RunResult) instead of the structured result alone. */
  fullResult?: boolean;
}

/**
 * Every operation as a JSON-RPC method on `connection` (the sidecar over stdio, each client of
 * the daemon over its socket): `$/cancelRequest` aborts the call, `$/progress` goes to the caller's
 * `_progressToken`, errors are ResponseErrors carrying the lspgate code. Returns a function that
 * aborts every call still running on this connection (its client is gone).
 */
export function serveOperations(connection: MessageConnection, gateway: FrontendGateway, logger: Logger, opts: ServeOperationsOptions = {}): () => void {
  const running = new Set<AbortController>();
  connection.onRequest(async (method: string, params: unknown, token: CancellationToken) => {
    if (opts.isOpen && !opts.isOpen()) throw new ResponseError(-32600, 'the sidecar is shut down', { code: 'SERVER_FAILED' });
    const ac = new AbortController();
    running.add(ac);
    const sub = token.onCancellationRequested(() => ac.abort());
    let relay: ProgressRelay | undefined;
    try {
      const args = unwrapParams(params);
      const progressToken = args[PROGRESS_TOKEN_PARAM];
      delete args[PROGRESS_TOKEN_PARAM];
      if (typeof progressToken === 'string' || typeof progressToken === 'number') {
        relay = relayProgress(gateway.context.broker, (value) => {
          void connection.sendNotification('$/progress', { token: progressToken, value }).catch(() => undefined);
        });
      }
      // a program waits at most DEFAULT_WAIT_MS for a server unless it passes wait_ms: then NOT_READY
      const run = await gateway.run(method, args, {
        signal: ac.signal,
        progress: relay?.progress,
        defaultWaitMs: DEFAULT_WAIT_MS,
        defaultMaxMs: DEFAULT_MAX_MS,
      });
      return opts.fullResult ? run : run.result;
    } catch (e) {
      const err = toLspgateError(e);
      if (err.code === 'INTERNAL') logger.warn(`${method} failed`, e);
      throw new ResponseError(jsonRpcCodeFor(err.code), err.message, { code: err.code, details: err.details ?? {} });
    } finally {
      running.delete(ac);
      sub.dispose();
      relay?.dispose();
    }
  });
  return () => {
    for (const ac of running) ac.abort();
  };
}

/** By-name params are the operation's input; a by-position call may pass that object as the only element. */
function unwrapParams(params: unknown): Record<string, unknown> {
  if (params === undefined || params === null) return {};
  if (Array.isArray(params)) {
    if (params.length === 0) return {};
    if (params.length === 1 && isPlainObject(params[0])) return { ...params[0] };
    throw new LspgateError('INVALID_INPUT', 'params must be an object (by name), or an array holding one object');
  }
  if (isPlainObject(params)) return { ...params };
  throw new LspgateError('INVALID_INPUT', 'params must be an object');
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export function describe(gateway: FrontendGateway) {
  return {
    serverInfo: { name: 'lspgate', version: packageVersion() },
    operations: gateway.operations().map((op) => ({
      name: op.name,
      title: op.title,
      description: describeOperation(op),
      inputSchema: inputJsonSchema(op),
      outputSchema: outputJsonSchema(op),
      annotations: op.annotations,
    })),
    errorCodes: JSONRPC_ERROR_CODES,
  };
}

/** The CLI entry: serve on this process's stdio until `exit`, EOF or a signal. */
export function runSidecar(gateway: FrontendGateway): void {
  const logger = gateway.context.logger.child('sidecar');
  const { connection, exited } = serveSidecar(gateway, process.stdin, process.stdout);
  const lifecycle = installLifecycle(gateway, { watchStdin: true, closeFrontend: () => connection.dispose(), logger });
  void exited.then((code) => lifecycle.shutdown('exit notification', code));
}
