/**
 * Streams and sessions of a spawned `lspgate mcp --http` as clients meet them. The GET stream's
 * headers come at once (before, Node sent them with the first keep-alive, 15 s later), and a GET
 * the client dropped frees the session's stream slot at once (before, a new GET was refused 409
 * until the next keep-alive noticed the drop): with the 1.x and the 2.x SDK client, a cut GET stream
 * is opened again by the client itself and carries server messages. Sessions past
 * `--max-sessions`: sessions still in their handshake count (40 clients connecting at once with a
 * cap of 32 never hold more than 32), and a client of a closed session gets 404 with a JSON-RPC error saying why and to initialize again, after which
 * it works.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { connectSdk, type HttpSdkClient, SDKS } from '../helpers/mcp-http-sdks.js';
import { assertBuilt, CLI, removeDir, type Spawned, spawnNode, tempDir, waitFor } from '../helpers/spawn.js';

const TOKEN = 'streams-token-0123456789';
const INIT = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '0' } },
};

let dir: string;
const procs: Spawned[] = [];
const clients: HttpSdkClient[] = [];

beforeAll(() => {
  assertBuilt();
  dir = tempDir('lspgate-streams-');
});

afterAll(async () => {
  await Promise.all(clients.map((c) => c.close().catch(() => undefined)));
  for (const p of procs) p.child.kill('SIGTERM');
  await Promise.all(procs.map((p) => p.exited));
  if (dir) removeDir(dir);
});

async function start(args: string[] = []): Promise<{ proc: Spawned; url: string }> {
  const proc = spawnNode(CLI, ['mcp', '--tools', 'all', '--http', '--port', '0', '--root', dir, ...args], {
    cacheDir: `${dir}/cache-${procs.length}`,
    env: { LSPGATE_TOKEN: TOKEN, LSPGATE_LOG: 'debug' },
  });
  procs.push(proc);
  await waitFor(() => /listening on (http:\/\/\S+)/.test(proc.stderr()), 'the listening line');
  return { proc, url: /listening on (http:\/\/\S+)/.exec(proc.stderr())![1]! };
}

function headers(session?: string, extra: Record<string, string> = {}): Record<string, string> {
  return {
    authorization: `Bearer ${TOKEN}`,
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'mcp-protocol-version': '2025-11-25',
    ...(session ? { 'mcp-session-id': session } : {}),
    ...extra,
  };
}

/** initialize + notifications/initialized over raw HTTP; the session id. */
async function rawSession(url: string): Promise<string> {
  const res = await fetch(url, { method: 'POST', headers: headers(), body: JSON.stringify(INIT) });
  expect(res.status).toBe(200);
  const session = res.headers.get('mcp-session-id')!;
  await res.text();
  const done = await fetch(url, { method: 'POST', headers: headers(session), body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) });
  expect(done.status).toBe(202);
  return session;
}

async function connect(sdk: (typeof SDKS)[number], url: string): Promise<HttpSdkClient> {
  const c = await connectSdk(sdk, url, TOKEN);
  clients.push(c);
  return c;
}

describe('the GET stream', () => {
  it('sends its headers at once and frees its slot as soon as the client drops it', async () => {
    const { proc, url } = await start();
    const session = await rawSession(url);
    const get = await fetch(url, { headers: headers(session, { accept: 'text/event-stream' }) });
    expect(get.status).toBe(200);
    const reader = get.body!.getReader();
    // the first bytes come at once, before any keep-alive (15 s): the headers went with them
    const first = new TextDecoder().decode((await reader.read()).value);
    expect(first.startsWith(': stream open')).toBe(true);
    await reader.cancel();
    await waitFor(() => proc.stderr().includes(`mcp http session ${session}: the client dropped its GET stream`), 'the server to see the drop');
    const again = await fetch(url, { headers: headers(session, { accept: 'text/event-stream' }) });
    expect(again.status).toBe(200);
    await again.body?.cancel();
  });

  it.each(SDKS)('is opened again by the %s SDK client after a drop, and carries server messages', async (sdk) => {
    const { url } = await start();
    const a = await connect(sdk, url);
    await waitFor(() => a.getsOpened() === 1, 'the client to open its GET stream');
    const logs: string[] = [];
    a.onLog((data) => logs.push(JSON.stringify(data)));
    await a.setLoggingLevel('debug');
    a.dropGet();
    // the client waits the server's retry (2 s) and tries twice: before, both met 409 for 15 s
    await waitFor(() => a.getsOpened() === 2, 'the client to open its GET stream again');
    // a server message that belongs to no request goes on the GET stream: the debug line of another session opening
    await connect(sdk, url);
    await waitFor(() => logs.some((l) => /mcp http session \S+ opened/.test(l)), 'the log message on the re-opened stream');
  });
});

describe('sessions past --max-sessions', () => {
  it.each(SDKS)('the %s SDK client of a closed session is told to initialize again, and can', async (sdk) => {
    const { proc, url } = await start(['--max-sessions', '2']);
    const a = await connect(sdk, url);
    const b = await connect(sdk, url);
    await b.ping();
    // a third session: a, the least recently used, is closed for it
    await connect(sdk, url);
    await waitFor(() => /closed: least recently used of 2 open sessions/.test(proc.stderr()), 'a session to be closed for room');
    const refused = await a.ping().then(
      () => undefined,
      (e: Error) => e.message,
    );
    expect(refused).toMatch(/404|Session not found/);
    expect(refused).toContain('this session was closed (least recently used of 2 open sessions (--max-sessions))');
    expect(refused).toContain('send initialize without an Mcp-Session-Id header');
    const again = await connect(sdk, url);
    await expect(again.ping()).resolves.toBeDefined();
  });

  it('40 clients connecting at once with --max-sessions 32: never more than 32 open; a client closed in its handshake is told to initialize again, and can', async () => {
    const { proc, url } = await start(['--max-sessions', '32']);
    const connected = await Promise.allSettled(Array.from({ length: 40 }, (_, i) => connect(SDKS[i % 2]!, url)));
    const failed = connected.filter((r): r is PromiseRejectedResult => r.status === 'rejected').map((r) => String(r.reason));
    for (const message of failed) expect(message).toMatch(/404|Session not found/);
    const count = (re: RegExp) => proc.stderr().match(re)?.length ?? 0;
    const open = () => count(/mcp http session \S+ opened/g) - count(/mcp http session \S+ closed: /g);
    expect(open()).toBeLessThanOrEqual(32);
    for (let i = 0; i < failed.length; i++) await expect((await connect(SDKS[i % 2]!, url)).ping()).resolves.toBeDefined();
    expect(open()).toBeLessThanOrEqual(32);
  });
});
