/**
 * The JSON-RPC sidecar as a spawned process, driven by a vscode-jsonrpc client over stdio with
 * Content-Length framing: initialize (operations with JSON Schemas), methods by operation name,
 * errors as ResponseErrors with the lspgate code in data, $/cancelRequest, $/progress,
 * shutdown + exit.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CancellationTokenSource,
  createMessageConnection,
  type MessageConnection,
  ParameterStructures,
  ResponseError,
  StreamMessageReader,
  StreamMessageWriter,
} from 'vscode-jsonrpc/node';

import { assertBuilt, removeDir, type Spawned, spawnNode, tempDir, TEST_FRONTEND, TS_APP } from '../helpers/spawn.js';

let proc: Spawned;
let conn: MessageConnection;
let cacheDir: string;

beforeAll(() => {
  assertBuilt();
  cacheDir = tempDir();
  proc = spawnNode(TEST_FRONTEND, ['sidecar', '--root', TS_APP], { cacheDir, stdio: ['pipe', 'pipe', 'pipe'] });
  conn = createMessageConnection(new StreamMessageReader(proc.child.stdout!), new StreamMessageWriter(proc.child.stdin!));
  conn.listen();
});

afterAll(async () => {
  conn?.dispose();
  if (proc && proc.child.exitCode === null) proc.child.kill('SIGTERM');
  await proc?.exited;
  removeDir(cacheDir);
});

async function rpcError(p: Promise<unknown>): Promise<ResponseError<{ code: string; details: Record<string, unknown> }>> {
  try {
    await p;
  } catch (e) {
    if (e instanceof ResponseError) return e as ResponseError<{ code: string; details: Record<string, unknown> }>;
    throw e;
  }
  throw new Error('expected a ResponseError');
}

describe('lspgate sidecar', () => {
  it('initialize lists the operations with JSON Schemas and the error-code table', async () => {
    const init = (await conn.sendRequest('initialize', {})) as {
      serverInfo: { name: string; version: string };
      operations: {
        name: string;
        description: string;
        inputSchema: { properties: Record<string, unknown>; required?: string[] };
        outputSchema: { properties: Record<string, unknown> };
      }[];
      errorCodes: Record<string, number>;
    };
    expect(init.serverInfo.name).toBe('lspgate');
    expect(init.serverInfo.version).toMatch(/^\d+\.\d+\.\d+/);
    expect(init.operations.map((o) => o.name).sort()).toEqual(['echo', 'fail', 'start_server', 'stats', 'wait']);
    const echo = init.operations.find((o) => o.name === 'echo')!;
    expect(echo.description).toBe('Echoes its input (test operation).');
    expect(Object.keys(echo.inputSchema.properties).sort()).toEqual(['loud', 'output_format', 'tags', 'text', 'times', 'workspace']);
    expect(echo.inputSchema.required).toEqual(['text']);
    expect(Object.keys(echo.outputSchema.properties)).toContain('_meta');
    expect(init.errorCodes).toMatchObject({ INVALID_INPUT: -32602, UNKNOWN_OPERATION: -32601, INTERNAL: -32603, CANCELLED: -32800 });
  });

  it('answers an operation method with its structured result', async () => {
    const r = (await conn.sendRequest('echo', { text: 'side', times: 2 })) as Record<string, unknown>;
    expect(r).toMatchObject({ text: 'side side', tags: [], loud: false, _meta: { workspace: TS_APP, truncated: false } });
  });

  it('accepts by-position params holding one object', async () => {
    const r = (await conn.sendRequest('echo', ParameterStructures.byPosition, { text: 'pos' })) as Record<string, unknown>;
    expect(r).toMatchObject({ text: 'pos' });
  });

  it('maps lspgate errors to JSON-RPC errors with data.code', async () => {
    const e = await rpcError(conn.sendRequest('fail', { code: 'AMBIGUOUS_SYMBOL' }));
    expect(e.code).toBe(-32014);
    expect(e.message).toBe('failing on purpose');
    expect(e.data).toEqual({ code: 'AMBIGUOUS_SYMBOL', details: { candidates: [{ symbol_id: 'src/a.ts::A#class' }] } });
  });

  it('answers invalid params with -32602 INVALID_INPUT and unknown methods with -32601 UNKNOWN_OPERATION', async () => {
    const bad = await rpcError(conn.sendRequest('echo', { text: 5 }));
    expect(bad.code).toBe(-32602);
    expect(bad.data?.code).toBe('INVALID_INPUT');
    const unknown = await rpcError(conn.sendRequest('no_such_operation', {}));
    expect(unknown.code).toBe(-32601);
    expect(unknown.data?.code).toBe('UNKNOWN_OPERATION');
    expect(unknown.data?.details.operations).toContain('echo');
  });

  it('sends $/progress for a _progressToken and honours $/cancelRequest', async () => {
    const progress: unknown[] = [];
    const sub = conn.onNotification('$/progress', (p: { token: string; value: unknown }) => {
      if (p.token === 'tok-1') progress.push(p.value);
    });
    const cts = new CancellationTokenSource();
    const call = conn.sendRequest('wait', { steps: 2, _progressToken: 'tok-1' }, cts.token);
    const until = Date.now() + 10_000;
    while (progress.length < 2 && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
    cts.cancel();
    const e = await rpcError(call);
    sub.dispose();
    expect(progress).toEqual([
      { progress: 1, total: 2, message: 'step 1' },
      { progress: 2, total: 2, message: 'step 2' },
    ]);
    // The client gives up at once; the server's own answer and its counter show the handler was aborted.
    let stats = (await conn.sendRequest('stats', {})) as { cancelled: number; waiting: number };
    for (let i = 0; i < 100 && stats.cancelled === 0; i++) {
      await new Promise((r) => setTimeout(r, 50));
      stats = (await conn.sendRequest('stats', {})) as { cancelled: number; waiting: number };
    }
    expect(e.code).toBe(-32800);
    expect(stats).toMatchObject({ cancelled: 1, waiting: 0 });
  });

  it('shutdown then exit ends the process with status 0', async () => {
    expect(await conn.sendRequest('shutdown')).toBeNull();
    const after = await rpcError(conn.sendRequest('echo', { text: 'late' }));
    expect(after.code).toBe(-32600);
    await conn.sendNotification('exit');
    const { code } = await proc.exited;
    expect(code).toBe(0);
  });
});
