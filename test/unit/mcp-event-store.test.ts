import type { JSONRPCMessage } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';

import { MemoryEventStore } from '../../src/frontends/mcp/event-store.js';

const result = (id: number, text: string): JSONRPCMessage => ({ jsonrpc: '2.0', id, result: { content: [{ type: 'text', text }] } }) as JSONRPCMessage;

async function replayed(store: MemoryEventStore, after: string): Promise<{ stream: string; ids: unknown[] }> {
  const ids: unknown[] = [];
  const stream = await store.replayEventsAfter(after, { send: async (_e, m) => void ids.push((m as { id: unknown }).id) });
  return { stream, ids };
}

describe('MemoryEventStore (SSE replay after Last-Event-ID)', () => {
  it('replays what followed an event on the same stream only, as the messages sent', async () => {
    const s = new MemoryEventStore();
    const first = await s.storeEvent('a', result(1, 'x'));
    await s.storeEvent('b', result(2, 'y'));
    await s.storeEvent('a', result(3, 'z'));
    expect(await replayed(s, first)).toEqual({ stream: 'a', ids: [3] });
    expect(await s.getStreamIdForEventId(first)).toBe('a');
  });

  it('is bounded by bytes: large results push the oldest out, whatever their count', async () => {
    const s = new MemoryEventStore(1000, 100_000);
    const big = 'r'.repeat(20_000); // ~40 kB as a V8 two-byte bound
    const ids: string[] = [];
    for (let i = 0; i < 10; i++) ids.push(await s.storeEvent('a', result(i, big)));
    expect(s.size.bytes).toBeLessThanOrEqual(100_000);
    expect(s.size.events).toBe(2);
    expect(await s.getStreamIdForEventId(ids[0]!)).toBeUndefined(); // dropped: the client re-asks
    expect((await replayed(s, ids[8]!)).ids).toEqual([9]);
  });

  it('is bounded by count', async () => {
    const s = new MemoryEventStore(3);
    for (let i = 0; i < 10; i++) await s.storeEvent('a', result(i, 'x'));
    expect(s.size.events).toBe(3);
  });

  it('keeps no event larger than the whole budget (its id is still given)', async () => {
    const s = new MemoryEventStore(1000, 1000);
    const id = await s.storeEvent('a', result(1, 'x'.repeat(2000)));
    expect(id).toMatch(/^a_/);
    expect(s.size).toEqual({ events: 0, bytes: 0 });
  });
});
