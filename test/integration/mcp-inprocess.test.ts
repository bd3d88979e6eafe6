/**
 * MCP server built from the operation table, driven by the real MCP client over an in-memory
 * transport pair: tool listing (schemas, annotations), structured results and text, coded
 * isError results, protocol errors for unknown tools, progress, cancellation.
 */
import type { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { LspgateError } from '../../src/errors/errors.js';
import { Gateway } from '../../src/gateway/gateway.js';
import { withMeta } from '../../src/schema/meta.js';
import { connectInProcess, errorOf, textOf } from '../helpers/mcp-client.js';
import { removeDir, tempDir, TS_APP } from '../helpers/spawn.js';
import { testOperations, testState } from '../helpers/test-operations.mjs';

let gateway: Gateway;
let client: Client;
let close: () => Promise<void>;
let cacheDir: string;

beforeAll(async () => {
  cacheDir = tempDir();
  gateway = await Gateway.create({ root: TS_APP, cacheDir, operations: testOperations({ LspgateError, withMeta }) });
  ({ client, close } = await connectInProcess(gateway));
});

afterAll(async () => {
  await close?.();
  await gateway?.close();
  removeDir(cacheDir);
});

describe('MCP tools from the operation table', () => {
  it('lists one tool per operation with title, schemas and closed-world read-only annotations', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(['echo', 'fail', 'start_server', 'stats', 'wait']);
    const echo = tools.find((t) => t.name === 'echo')!;
    expect(echo.title).toBe('Echo');
    expect(echo.description).toBe('Echoes its input (test operation).');
    // read-only: the spec gives destructiveHint and idempotentHint meaning only for tools that write
    expect(echo.annotations).toEqual({ readOnlyHint: true, openWorldHint: false });
    const props = (echo.inputSchema as { properties: Record<string, { type?: string; description?: string }> }).properties;
    expect(Object.keys(props).sort()).toEqual(['loud', 'output_format', 'tags', 'text', 'times', 'workspace']);
    expect(props.text).toMatchObject({ type: 'string', description: 'What to echo' });
    expect((echo.inputSchema as { required?: string[] }).required).toEqual(['text']);
    const out = echo.outputSchema as { properties: Record<string, unknown>; required: string[] };
    expect(Object.keys(out.properties).sort()).toEqual(['_meta', 'loud', 'tags', 'text']);
  });

  it('answers structuredContent (with _meta) and the markdown text by default', async () => {
    const r = await client.callTool({ name: 'echo', arguments: { text: 'hi', times: 2, tags: ['a'] } });
    expect(r.isError).toBeFalsy();
    expect(r.structuredContent).toMatchObject({ text: 'hi hi', tags: ['a'], loud: false, _meta: { workspace: TS_APP, truncated: false } });
    expect(textOf(r)).toBe('echo: hi hi\n');
  });

  it('renders the text as JSON with output_format json', async () => {
    const r = await client.callTool({ name: 'echo', arguments: { text: 'x', output_format: 'json' } });
    expect(JSON.parse(textOf(r))).toEqual(r.structuredContent);
  });

  it('turns an LspgateError into an isError result with the coded payload', async () => {
    const r = await client.callTool({ name: 'fail', arguments: { code: 'AMBIGUOUS_SYMBOL' } });
    expect(r.isError).toBe(true);
    // The payload is the text (JSON) and _meta["lspgate/error"]; no structuredContent (error-result.ts).
    expect(errorOf(r)).toEqual({
      error: 'failing on purpose',
      code: 'AMBIGUOUS_SYMBOL',
      details: { candidates: [{ symbol_id: 'src/a.ts::A#class' }] },
    });
  });

  it('reports invalid arguments as a coded INVALID_INPUT result naming the field', async () => {
    const r = await client.callTool({ name: 'echo', arguments: { text: 'x', times: 99 } });
    expect(r.isError).toBe(true);
    const sc = errorOf(r) as { code: string; details: { issues: { path: string }[] } };
    expect(sc.code).toBe('INVALID_INPUT');
    expect(sc.details.issues.map((i) => i.path)).toContain('times');
  });

  it('answers an unknown tool with a protocol error', async () => {
    await expect(client.callTool({ name: 'no_such_tool', arguments: {} })).rejects.toThrow(/no_such_tool/);
  });

  it('forwards progress to a client that sent a progress token', async () => {
    const seen: { progress: number; total?: number; message?: string }[] = [];
    const ac = new AbortController();
    const call = client.callTool(
      { name: 'wait', arguments: { steps: 3 } },
      {
        signal: ac.signal,
        onprogress: (p) => {
          seen.push(p);
          if (seen.length === 3) ac.abort();
        },
      },
    );
    await expect(call).rejects.toThrow();
    expect(seen.map((p) => p.progress)).toEqual([1, 2, 3]);
    expect(seen[2]).toMatchObject({ total: 3, message: 'step 3' });
  });

  it('aborts the operation when the client cancels the request', async () => {
    const before = testState.cancelled;
    const ac = new AbortController();
    const call = client.callTool({ name: 'wait', arguments: { steps: 1 } }, { signal: ac.signal, onprogress: () => ac.abort() });
    await expect(call).rejects.toThrow();
    // notifications/cancelled reaches the server asynchronously: the handler's signal is aborted.
    const until = Date.now() + 10_000;
    while (testState.cancelled === before && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
    expect(testState.cancelled).toBe(before + 1);
    expect(testState.waiting).toBe(0);
  });
});
