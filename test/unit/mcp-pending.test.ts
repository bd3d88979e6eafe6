/**
 * What a thin `lspgate mcp` replays on a new daemon (src/cli/thin/mcp-pending.ts): the initialize,
 * the last log level and the subscriptions the daemon accepted and the client did not undo; the
 * replayed requests' answers are not passed on, and a refused replayed subscription is dropped
 * and said. (The real-daemon check is test/integration/daemon-relay-resume.test.ts.)
 */
import { describe, expect, it } from 'vitest';

import { McpPending } from '../../src/cli/thin/mcp-pending.js';

const line = (m: object) => Buffer.from(JSON.stringify({ jsonrpc: '2.0', ...m }) + '\n');

function session() {
  const out: string[] = [];
  const notes: string[] = [];
  const p = new McpPending(
    (l) => out.push(l),
    (l) => notes.push(l),
  );
  const client = (m: object) => p.fromClient.feed(line(m));
  const daemon = (m: object) => p.fromDaemon.feed(line(m));
  client({ id: 0, method: 'initialize', params: {} });
  daemon({ id: 0, result: {} });
  client({ method: 'notifications/initialized' });
  return { p, out, notes, client, daemon };
}

describe('McpPending', () => {
  it('replays the accepted level and subscriptions, not the refused, undone or unanswered ones', () => {
    const { p, client, daemon } = session();
    client({ id: 1, method: 'logging/setLevel', params: { level: 'error' } });
    daemon({ id: 1, result: {} });
    client({ id: 2, method: 'resources/subscribe', params: { uri: 'lspgate://w/outline/a' } });
    daemon({ id: 2, result: {} });
    client({ id: 3, method: 'resources/subscribe', params: { uri: 'lspgate://w/outline/refused' } });
    daemon({ id: 3, error: { code: -32002, message: 'no' } });
    client({ id: 4, method: 'resources/subscribe', params: { uri: 'lspgate://w/outline/b' } });
    daemon({ id: 4, result: {} });
    client({ id: 5, method: 'resources/unsubscribe', params: { uri: 'lspgate://w/outline/b' } });
    daemon({ id: 5, result: {} });
    client({ id: 6, method: 'resources/subscribe', params: { uri: 'lspgate://w/outline/lost' } });
    expect(p.failAll('gone')).toContain('"id":6');
    const replay = p
      .replay()!
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { id?: unknown; method: string; params?: unknown });
    expect(replay.map((m) => [m.method, m.params])).toEqual([
      ['initialize', {}],
      ['notifications/initialized', undefined],
      ['logging/setLevel', { level: 'error' }],
      ['resources/subscribe', { uri: 'lspgate://w/outline/a' }],
    ]);
  });

  it('swallows the replayed answers and drops a subscription the new daemon refuses', () => {
    const { p, out, notes, client, daemon } = session();
    client({ id: 1, method: 'resources/subscribe', params: { uri: 'lspgate://w/outline/a' } });
    daemon({ id: 1, result: {} });
    const replay = p
      .replay()!
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { id?: unknown });
    const before = out.length;
    daemon({ id: 0, result: {} });
    daemon({ id: replay[2]!.id, error: { code: -32602, message: 'file gone' } });
    expect(out.length).toBe(before);
    expect(notes).toEqual(['lspgate: the new daemon refused the replayed resources/subscribe lspgate://w/outline/a: file gone']);
    expect([...p.subscriptions]).toEqual([]);
    daemon({ id: 7, result: {} });
    expect(out.length).toBe(before + 1);
  });
});
