/**
 * An MCP stdio request of 10 MiB or more overflowed the SDK's read buffer and
 * the session stopped answering. It is now refused with a coded error, and the session goes on.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { connectStdio, type StdioConnection, textOf } from '../helpers/mcp-client.js';
import { assertBuilt, removeDir, tempDir, TEST_FRONTEND, TS_APP } from '../helpers/spawn.js';

describe('an oversized MCP stdio message', () => {
  let conn: StdioConnection;
  let cacheDir: string;

  beforeAll(async () => {
    assertBuilt();
    cacheDir = tempDir();
    conn = await connectStdio(TEST_FRONTEND, ['mcp', '--root', TS_APP], { cacheDir });
  });

  afterAll(async () => {
    await conn?.client.close();
    removeDir(cacheDir);
  });

  it('is answered LIMIT_EXCEEDED, and the next calls are answered', async () => {
    const huge = 'x'.repeat(11 * 1024 * 1024);
    let message = '';
    try {
      await conn.client.callTool({ name: 'echo', arguments: { text: huge } });
    } catch (e) {
      message = (e as Error).message;
    }
    expect(message).toMatch(/LIMIT_EXCEEDED/);
    const ok = await conn.client.callTool({ name: 'echo', arguments: { text: 'still here' } });
    expect(textOf(ok)).toBe('echo: still here\n');
    expect(conn.stderr()).toMatch(/dropped an MCP message over/);
  });
});
