/**
 * A spawned MCP server over stdio (the built front-end with the test operation table), reached by
 * the real MCP client in both protocol eras: 2025-11-25 (`initialize`) and 2026-07-28 (pinned).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { connectStdio, type Era, errorOf, type StdioConnection, textOf } from '../helpers/mcp-client.js';
import { assertBuilt, removeDir, tempDir, TEST_FRONTEND, TS_APP } from '../helpers/spawn.js';

const eras: Era[] = ['legacy', '2026-07-28'];

describe.each(eras)('lspgate mcp over stdio, era %s', (era) => {
  let conn: StdioConnection;
  let cacheDir: string;

  beforeAll(async () => {
    assertBuilt();
    cacheDir = tempDir();
    conn = await connectStdio(TEST_FRONTEND, ['mcp', '--root', TS_APP], { cacheDir, era });
  });

  afterAll(async () => {
    await conn?.client.close();
    removeDir(cacheDir);
  });

  it('negotiates the requested protocol version', () => {
    expect(conn.client.getNegotiatedProtocolVersion()).toBe(era === 'legacy' ? '2025-11-25' : '2026-07-28');
    expect(conn.client.getServerVersion()?.name).toBe('lspgate');
  });

  it('lists the tools with their schemas', async () => {
    const { tools } = await conn.client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(['echo', 'fail', 'start_server', 'stats', 'wait']);
    expect(tools.find((t) => t.name === 'echo')!.outputSchema).toBeDefined();
  });

  it('answers structured results and coded errors', async () => {
    const ok = await conn.client.callTool({ name: 'echo', arguments: { text: 'hey', loud: true } });
    expect(ok.structuredContent).toMatchObject({ text: 'HEY', loud: true, _meta: { workspace: TS_APP } });
    expect(textOf(ok)).toBe('echo: HEY\n');
    const bad = await conn.client.callTool({ name: 'fail', arguments: {} });
    expect(bad.isError).toBe(true);
    expect(errorOf(bad)).toMatchObject({ code: 'SYMBOL_NOT_FOUND', error: 'failing on purpose' });
  });

  it('forwards progress and cancellation across the process boundary', async () => {
    const ac = new AbortController();
    const seen: number[] = [];
    const call = conn.client.callTool(
      { name: 'wait', arguments: { steps: 2 } },
      {
        signal: ac.signal,
        onprogress: (p) => {
          seen.push(p.progress);
          if (seen.length === 2) ac.abort();
        },
      },
    );
    await expect(call).rejects.toThrow();
    expect(seen).toEqual([1, 2]);
    // The handler saw the abort: the server's counter moved and nothing is left waiting.
    let stats: { cancelled: number; waiting: number } = { cancelled: 0, waiting: 1 };
    for (let i = 0; i < 100 && stats.cancelled === 0; i++) {
      stats = (await conn.client.callTool({ name: 'stats', arguments: {} })).structuredContent as typeof stats;
      if (stats.cancelled === 0) await new Promise((r) => setTimeout(r, 50));
    }
    expect(stats).toMatchObject({ cancelled: 1, waiting: 0 });
  });
});
