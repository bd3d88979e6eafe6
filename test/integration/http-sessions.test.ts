/**
 * Stateful Streamable HTTP (2025-11-25 transport) through a spawned `lspgate mcp --http`, with raw
 * HTTP so every header and SSE field is visible: a session per initialize (`Mcp-Session-Id`), 400
 * without one and 404 for an unknown one, the GET stream carrying server-initiated messages (a
 * resource update after the file changed), resumability (event ids, a priming event with empty
 * data and `retry`, replay after `Last-Event-ID` of what was sent while disconnected), DELETE,
 * idle expiry, the cap on open sessions (half-open ones included, expiring after the handshake
 * deadline), and `--stateless` keeping no sessions.
 */
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { outlineUri } from '../../src/frontends/mcp/resources.js';
import { assertBuilt, CLI, removeDir, type Spawned, spawnNode, tempDir, TS_APP, waitFor } from '../helpers/spawn.js';

const TOKEN = 'sessions-token-0123456789';
const SERVER_TEST_TIMEOUT_MS = 150_000;
const INIT = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '0' } },
};

interface SseEvent {
  id?: string;
  event?: string;
  data: string;
  retry?: number;
}

/** An SSE response read event by event. */
class SseReader {
  private buf = '';
  private readonly events: SseEvent[] = [];
  private done = false;
  private readonly reader: ReadableStreamDefaultReader<Uint8Array>;

  constructor(readonly response: Response) {
    this.reader = response.body!.getReader();
  }

  /** The first event (from the start of the stream) that matches, waiting for more as needed. */
  async find(match: (e: SseEvent) => boolean, what: string): Promise<SseEvent> {
    for (;;) {
      const hit = this.events.find(match);
      if (hit) return hit;
      if (this.done) throw new Error(`stream ended without ${what}`);
      const { value, done } = await this.reader.read();
      if (done) this.done = true;
      else this.parse(new TextDecoder().decode(value));
    }
  }

  private parse(text: string): void {
    this.buf += text;
    let end: number;
    while ((end = this.buf.indexOf('\n\n')) >= 0) {
      const block = this.buf.slice(0, end);
      this.buf = this.buf.slice(end + 2);
      const e: SseEvent = { data: '' };
      for (const line of block.split('\n')) {
        const [k, ...rest] = line.split(':');
        const v = rest.join(':').replace(/^ /, '');
        if (k === 'id') e.id = v;
        else if (k === 'event') e.event = v;
        else if (k === 'retry') e.retry = Number(v);
        else if (k === 'data') e.data += v;
      }
      if (block.trim() !== '' && !block.startsWith(':')) this.events.push(e);
    }
  }

  async close(): Promise<void> {
    await this.reader.cancel().catch(() => undefined);
  }
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

async function start(root: string, cacheDir: string, args: string[] = []): Promise<{ proc: Spawned; url: string }> {
  const proc = spawnNode(CLI, ['mcp', '--tools', 'all', '--http', '--port', '0', '--root', root, ...args], {
    cacheDir,
    env: { LSPGATE_TOKEN: TOKEN, LSPGATE_LOG: 'debug' },
  });
  await waitFor(() => /listening on (http:\/\/\S+)/.test(proc.stderr()), 'the listening line');
  return { proc, url: /listening on (http:\/\/\S+)/.exec(proc.stderr())![1]! };
}

async function post(url: string, body: unknown, session?: string): Promise<Response> {
  return fetch(url, { method: 'POST', headers: headers(session), body: JSON.stringify(body) });
}

/** initialize + notifications/initialized; returns the session id and the initialize stream. */
async function openSession(url: string): Promise<{ session: string; init: SseReader }> {
  const res = await post(url, INIT);
  expect(res.status).toBe(200);
  const session = res.headers.get('mcp-session-id');
  expect(session).toMatch(/^[0-9a-f-]{36}$/);
  const init = new SseReader(res);
  await init.find((e) => e.data.includes('"protocolVersion"'), 'the initialize result');
  expect((await post(url, { jsonrpc: '2.0', method: 'notifications/initialized' }, session!)).status).toBe(202);
  return { session: session!, init };
}

let dir: string;
let root: string;
const procs: Spawned[] = [];

beforeAll(() => {
  assertBuilt();
  dir = tempDir('lspgate-sessions-');
  root = path.join(dir, 'ws');
  cpSync(TS_APP, root, { recursive: true });
});

afterAll(async () => {
  for (const p of procs) p.child.kill('SIGTERM');
  await Promise.all(procs.map((p) => p.exited));
  if (dir) removeDir(dir);
});

describe('stateful Streamable HTTP', () => {
  let url: string;
  let server: Spawned;
  const proc = () => server;
  beforeAll(async () => {
    const s = await start(root, path.join(dir, 'cache-a'));
    procs.push(s.proc);
    server = s.proc;
    url = s.url;
  });

  it('opens a session per initialize, primes each stream with an event id, empty data and retry', async () => {
    const { session, init } = await openSession(url);
    const priming = await init.find(() => true, 'the priming event');
    expect(priming).toMatchObject({ data: '', retry: 2000 });
    expect(priming.id).toBeTruthy();
    const result = await init.find((e) => e.data.includes('"protocolVersion"'), 'the result');
    expect(result.id).toBeTruthy();
    expect(JSON.parse(result.data).result.capabilities).toMatchObject({ logging: {}, resources: { subscribe: true }, tools: { listChanged: true } });
    const other = await openSession(url);
    expect(other.session).not.toBe(session);
  });

  it('answers 400 without a session id and 404 for an unknown one', async () => {
    const ping = { jsonrpc: '2.0', id: 2, method: 'ping' };
    expect((await post(url, ping)).status).toBe(400);
    expect((await post(url, ping, '00000000-0000-0000-0000-000000000000')).status).toBe(404);
  });

  it(
    'delivers server-initiated messages on the GET stream and replays them after Last-Event-ID',
    async () => {
      const { session } = await openSession(url);
      // The workspace id: asked for rather than guessed (it holds a hash of the root).
      const listed = new SseReader(
        await post(url, { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'list_workspaces', arguments: {} } }, session),
      );
      const wsId = JSON.parse((await listed.find((e) => e.data.includes('"result"'), 'list_workspaces')).data).result.structuredContent.workspaces[0]
        .id as string;
      const outline = outlineUri(wsId, 'src/util/math.ts');
      const sub = new SseReader(await post(url, { jsonrpc: '2.0', id: 4, method: 'resources/subscribe', params: { uri: outline } }, session));
      expect(JSON.parse((await sub.find((e) => e.data.includes('"id":4'), 'the subscribe answer')).data).result).toEqual({});

      // Live: the GET stream gets the update.
      const get1 = await fetch(url, { headers: headers(session, { accept: 'text/event-stream' }) });
      expect(get1.status).toBe(200);
      expect(get1.headers.get('content-type')).toContain('text/event-stream');
      const live = new SseReader(get1);
      const file = path.join(root, 'src/util/math.ts');
      writeFileSync(file, readFileSync(file, 'utf8') + '\nexport const liveEdit = 1;\n');
      const update = await live.find((e) => e.data.includes('notifications/resources/updated'), 'the live update');
      expect(JSON.parse(update.data).params.uri).toBe(outline);
      expect(update.id).toBeTruthy();

      // Disconnected: the next update is stored, and replayed after the last event id seen.
      await live.close();
      const sent = proc().stderr().split(`resource updated: ${outline}`).length;
      writeFileSync(file, readFileSync(file, 'utf8') + '\nexport const offlineEdit = 2;\n');
      // Sent (and stored) while nobody listened: the server logs each update it sends.
      await waitFor(() => proc().stderr().split(`resource updated: ${outline}`).length > sent, 'the offline update to be sent');
      let resumed: Response | undefined;
      // 409 means the server has not yet seen the old GET connection close: wait for that (bounded).
      for (let i = 0; i < 100; i++) {
        resumed = await fetch(url, { headers: headers(session, { accept: 'text/event-stream', 'last-event-id': update.id! }) });
        if (resumed.status !== 409) break;
        await resumed.body?.cancel();
        await new Promise((r) => setTimeout(r, 100));
      }
      expect(resumed!.status).toBe(200);
      const replay = new SseReader(resumed!);
      const missed = await replay.find((e) => e.data.includes('notifications/resources/updated'), 'the replayed update');
      expect(missed.id).not.toBe(update.id);
      await replay.close();
    },
    SERVER_TEST_TIMEOUT_MS,
  );

  it('ends a session on DELETE', async () => {
    const { session } = await openSession(url);
    const del = await fetch(url, { method: 'DELETE', headers: headers(session) });
    expect(del.status).toBe(200);
    expect((await post(url, { jsonrpc: '2.0', id: 5, method: 'ping' }, session)).status).toBe(404);
  });
});

describe('session expiry and stateless mode', () => {
  it('closes a session left idle (404 afterwards)', async () => {
    // Long enough that opening the session (initialize, then initialized) never outlasts it on a
    // loaded machine (300 ms expired between the two under a load average of 17), short enough to wait for.
    const s = await start(root, path.join(dir, 'cache-b'), ['--session-idle-ms', '2000']);
    procs.push(s.proc);
    const { session } = await openSession(s.url);
    await waitFor(() => s.proc.stderr().includes(`mcp http session ${session} closed: idle`), 'the idle session to be closed');
    expect((await post(s.url, { jsonrpc: '2.0', id: 6, method: 'ping' }, session)).status).toBe(404);
  });

  it('--max-sessions closes the least recently used session to open another (404 for it, the others live)', async () => {
    const s = await start(root, path.join(dir, 'cache-d'), ['--max-sessions', '2']);
    procs.push(s.proc);
    const a = (await openSession(s.url)).session;
    const b = (await openSession(s.url)).session;
    // a is used again: b is now the least recently used
    expect((await post(s.url, { jsonrpc: '2.0', id: 7, method: 'ping' }, a)).status).toBe(200);
    const c = (await openSession(s.url)).session;
    await waitFor(() => s.proc.stderr().includes(`mcp http session ${b} closed: least recently used`), 'the LRU session to be closed');
    expect((await post(s.url, { jsonrpc: '2.0', id: 8, method: 'ping' }, b)).status).toBe(404);
    expect((await post(s.url, { jsonrpc: '2.0', id: 9, method: 'ping' }, a)).status).toBe(200);
    expect((await post(s.url, { jsonrpc: '2.0', id: 10, method: 'ping' }, c)).status).toBe(200);
  });

  it(
    'a flood of half-open sessions (initialize, never initialized) stays under --max-sessions, closes none that is established, and each expires after --handshake-ms',
    async () => {
      const s = await start(root, path.join(dir, 'cache-e'), ['--max-sessions', '8', '--handshake-ms', '5000']);
      procs.push(s.proc);
      const count = (re: RegExp) => s.proc.stderr().match(re)?.length ?? 0;
      const open = () => count(/mcp http session \S+ opened/g) - count(/mcp http session \S+ closed: /g);
      const established = (await openSession(s.url)).session;
      const halfOpen: string[] = [];
      for (let batch = 0; batch < 30; batch++) {
        const answers = await Promise.all(Array.from({ length: 10 }, () => post(s.url, INIT)));
        for (const res of answers) {
          expect(res.status).toBe(200);
          halfOpen.push(res.headers.get('mcp-session-id')!);
          await res.body?.cancel();
        }
        expect(open()).toBeLessThanOrEqual(8);
        expect((await post(s.url, { jsonrpc: '2.0', id: 100 + batch, method: 'ping' }, established)).status).toBe(200);
      }
      expect(halfOpen).toHaveLength(300);
      expect(s.proc.stderr()).not.toContain(`mcp http session ${established} closed`);
      const last = halfOpen.at(-1)!;
      await waitFor(
        () => s.proc.stderr().includes(`mcp http session ${last} closed: no notifications/initialized within 5000 ms`),
        'the last half-open session to expire',
      );
      const refused = await post(s.url, { jsonrpc: '2.0', method: 'notifications/initialized' }, last);
      expect(refused.status).toBe(404);
      expect(await refused.text()).toContain('no notifications/initialized within 5000 ms');
      expect((await post(s.url, { jsonrpc: '2.0', id: 200, method: 'ping' }, established)).status).toBe(200);
    },
    SERVER_TEST_TIMEOUT_MS,
  );

  it('--stateless answers without sessions and has no GET stream', async () => {
    const s = await start(root, path.join(dir, 'cache-c'), ['--stateless']);
    procs.push(s.proc);
    const res = await post(s.url, INIT);
    expect(res.status).toBe(200);
    expect(res.headers.get('mcp-session-id')).toBeNull();
    await res.body?.cancel();
    expect((await fetch(s.url, { headers: headers(undefined, { accept: 'text/event-stream' }) })).status).toBe(405);
  });
});
