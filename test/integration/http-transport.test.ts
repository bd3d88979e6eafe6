/**
 * `lspgate mcp --http` over real loopback HTTP: the real MCP client in both eras with the bearer
 * token, and raw requests for what must be refused: no/wrong token (401), foreign Host or Origin
 * (403: DNS rebinding), oversized bodies (413), other paths (404).
 */
import { readFileSync, statSync } from 'node:fs';
import { request } from 'node:http';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { connectHttp, type Era, errorOf, textOf } from '../helpers/mcp-client.js';
import { assertBuilt, removeDir, type Spawned, spawnNode, tempDir, TEST_FRONTEND, TS_APP, waitFor } from '../helpers/spawn.js';

let proc: Spawned;
let cacheDir: string;
let url: string;
let port: number;
let token: string;
let tokenFile: string;

const INIT = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '0' } },
};

function raw(
  headers: Record<string, string>,
  body: string = JSON.stringify(INIT),
  path = '/mcp',
): Promise<{ status: number; body: string; headers: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        path,
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
      },
      (res) => {
        let data = '';
        res.setEncoding('utf8').on('data', (d: string) => (data += d));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: data, headers: res.headers }));
      },
    );
    // The server may answer 413 before reading everything and close: that is not a client failure.
    req.on('error', (e: NodeJS.ErrnoException) => (e.code === 'EPIPE' || e.code === 'ECONNRESET' ? undefined : reject(e)));
    req.end(body);
  });
}

beforeAll(async () => {
  assertBuilt();
  cacheDir = tempDir();
  proc = spawnNode(TEST_FRONTEND, ['mcp-http', '--root', TS_APP, '--port', '0'], { cacheDir });
  await waitFor(() => /bearer token written to (\S+)/.test(proc.stderr()), 'the token file line on stderr');
  url = /listening on (http:\/\/\S+)/.exec(proc.stderr())![1]!;
  port = Number(new URL(url).port);
  tokenFile = /bearer token written to (\S+)/.exec(proc.stderr())![1]!;
  token = readFileSync(tokenFile, 'utf8').trim();
});

afterAll(async () => {
  proc?.child.kill('SIGTERM');
  await proc?.exited;
  removeDir(cacheDir);
});

describe('MCP Streamable HTTP', () => {
  it('listens on 127.0.0.1 and writes a random token to a 0600 file under the cache dir', () => {
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    expect(tokenFile.startsWith(cacheDir)).toBe(true);
    expect(statSync(tokenFile).mode & 0o777).toBe(0o600);
    expect(token).toMatch(/^[0-9a-f]{64}$/);
  });

  it.each<Era>(['legacy', '2026-07-28'])('serves the real MCP client with the bearer token (era %s)', async (era) => {
    const client = await connectHttp(url, token, era);
    try {
      expect(client.getNegotiatedProtocolVersion()).toBe(era === 'legacy' ? '2025-11-25' : '2026-07-28');
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toContain('echo');
      const r = await client.callTool({ name: 'echo', arguments: { text: 'over http' } });
      expect(r.structuredContent).toMatchObject({ text: 'over http' });
      expect(textOf(r)).toBe('echo: over http\n');
      const bad = await client.callTool({ name: 'fail', arguments: { code: 'TIMEOUT' } });
      expect(bad.isError).toBe(true);
      expect(errorOf(bad)).toMatchObject({ code: 'TIMEOUT' });
    } finally {
      await client.close();
    }
  });

  it('accepts the raw initialize with the token (control for the refusals below)', async () => {
    const r = await raw({ authorization: `Bearer ${token}` });
    expect(r.status).toBe(200);
    expect(r.body).toContain('"serverInfo"');
  });

  it('answers a client that was busy for over 5 s after its last answer (it reused a socket Node had closed: other side closed)', async () => {
    const client = await connectHttp(url, token);
    try {
      for (const busyMs of [5500, 7000]) {
        await client.listTools();
        const until = Date.now() + busyMs;
        while (Date.now() < until); // busy, as an SDK client compiling 40+ output schemas on a loaded machine
        const r = await client.callTool({ name: 'echo', arguments: { text: 'still here' } });
        expect(r.isError).toBeFalsy();
      }
    } finally {
      await client.close();
    }
  });

  it('an SDK client sending 11 MiB gets the 413 answer, never a reset connection, and goes on', async () => {
    const client = await connectHttp(url, token);
    try {
      for (let i = 0; i < 3; i++) {
        const err = await client.callTool({ name: 'echo', arguments: { text: 'x'.repeat(11 * 1024 * 1024) } }).then(
          () => undefined,
          (e: unknown) => e as Error,
        );
        expect(String(err?.message)).toMatch(/Payload Too Large|413/);
        expect(String(err?.message)).not.toMatch(/fetch failed/);
      }
      expect((await client.callTool({ name: 'echo', arguments: { text: 'after' } })).isError).toBeFalsy();
    } finally {
      await client.close();
    }
  });

  it('refuses a missing or wrong bearer token with 401', async () => {
    const none = await raw({});
    expect(none.status).toBe(401);
    expect(none.headers['www-authenticate']).toMatch(/^Bearer/);
    expect((await raw({ authorization: `Bearer ${token.slice(0, -1)}x` })).status).toBe(401);
    expect((await raw({ authorization: token })).status).toBe(401);
  });

  it('refuses foreign Host headers with 403, even with the token', async () => {
    const auth = { authorization: `Bearer ${token}` };
    expect((await raw({ ...auth, host: 'evil.example' })).status).toBe(403);
    expect((await raw({ ...auth, host: `evil.example:${port}` })).status).toBe(403);
    expect((await raw({ ...auth, host: `127.0.0.1:${port + 1}` })).status).toBe(403);
    expect((await raw({ ...auth, host: `localhost:${port}` })).status).toBe(200);
  });

  it('refuses foreign Origin headers with 403, even with the token', async () => {
    const auth = { authorization: `Bearer ${token}` };
    expect((await raw({ ...auth, origin: 'http://evil.example' })).status).toBe(403);
    expect((await raw({ ...auth, origin: `http://localhost:${port + 1}` })).status).toBe(403);
    expect((await raw({ ...auth, origin: 'null' })).status).toBe(403);
    expect((await raw({ ...auth, origin: `http://localhost:${port}` })).status).toBe(200);
  });

  it('refuses bodies over the limit with 413', async () => {
    const big = JSON.stringify({ ...INIT, params: { ...INIT.params, padding: 'x'.repeat(2 * 1024 * 1024) } });
    expect((await raw({ authorization: `Bearer ${token}` }, big)).status).toBe(413);
  });

  it('answers 404 outside /mcp', async () => {
    expect((await raw({ authorization: `Bearer ${token}` }, '{}', '/other')).status).toBe(404);
  });
});

describe('MCP HTTP token from LSPGATE_TOKEN', () => {
  it('uses the given token and writes no file', async () => {
    const dir = tempDir();
    const p = spawnNode(TEST_FRONTEND, ['mcp-http', '--root', TS_APP, '--port', '0'], { cacheDir: dir, env: { LSPGATE_TOKEN: 'given-token-123' } });
    try {
      await waitFor(() => /token taken from LSPGATE_TOKEN/.test(p.stderr()), 'the token line on stderr');
      const u = /listening on (http:\/\/\S+)/.exec(p.stderr())![1]!;
      const client = await connectHttp(u, 'given-token-123');
      const r = await client.callTool({ name: 'echo', arguments: { text: 'env' } });
      expect(r.structuredContent).toMatchObject({ text: 'env' });
      await client.close();
      await expect(connectHttp(u, 'wrong')).rejects.toThrow();
    } finally {
      p.child.kill('SIGTERM');
      await p.exited;
      removeDir(dir);
    }
  });
});
