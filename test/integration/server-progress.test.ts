/**
 * Start-up progress for callers: while a server starts and indexes, every update has a
 * `total`, values only increase, and a heartbeat repeats what is going on (server, state, open
 * `$/progress` titles) so a client never waits in silence. The fault server is a real process
 * whose indexing ($/progress "Indexing fault") never ends, or ends when told. Sessions created
 * after the relay started are seen through the broker's creation event.
 */
import { afterEach, describe, expect, it } from 'vitest';

import { faultEntry, faultWorkspace } from '../../fixtures/fault-server/entry.js';
import { createBroker, type SessionBroker } from '../../src/broker/broker.js';
import { HEARTBEAT_MS, type ProgressRelay, relayProgress } from '../../src/frontends/server-progress.js';
import type { ProgressUpdate } from '../../src/operations/types.js';
import { createLogger } from '../../src/util/logger.js';
import { waitFor } from '../helpers/spawn.js';

const logger = createLogger('test', 'error');
const INDEXING = { readiness: { kind: 'progress' as const, titlePattern: '^Indexing fault' } };

function expectWellFormed(updates: ProgressUpdate[]): void {
  for (const [i, u] of updates.entries()) {
    expect(u.total, JSON.stringify(u)).toBeGreaterThan(0);
    expect(u.progress).toBeLessThanOrEqual(u.total!);
    expect(u.message, JSON.stringify(u)).toBeTruthy();
    if (i > 0) expect(u.progress, JSON.stringify(updates.slice(i - 1, i + 1))).toBeGreaterThan(updates[i - 1]!.progress);
  }
}

describe('start-up progress', () => {
  let broker: SessionBroker | undefined;
  let relay: ProgressRelay | undefined;
  let ws: ReturnType<typeof faultWorkspace> | undefined;
  afterEach(async () => {
    relay?.dispose();
    await broker?.stop();
    ws?.cleanup();
  });

  it('beats at least every 2 s by default', () => {
    expect(HEARTBEAT_MS).toBeLessThan(2000);
  });

  it('repeats what a starting, indexing server is doing, with a total and increasing values', async () => {
    ws = faultWorkspace();
    broker = createBroker({ servers: [faultEntry(['--progress-never-ends'], INDEXING)], cacheDir: ws.cacheDir, logger });
    const updates: ProgressUpdate[] = [];
    // The relay exists before the session: the broker's creation event brings it in.
    relay = relayProgress(broker, (p) => updates.push(p), { heartbeatMs: 50 });
    const session = await broker.sessionFor(ws.file, ws.root);
    void session.requestRaw('fault/stats', {}).catch(() => undefined);
    // Heartbeats name the server, its state, for how long, and what it reports doing.
    const beats = () => updates.filter((u) => /^fault: (starting|indexing) for \d+ s \(Indexing fault\)$/.test(u.message ?? ''));
    await waitFor(() => beats().length >= 3, 'three heartbeats naming the open $/progress');
    expect(updates[0]!.message).toBe('fault: starting');
    expectWellFormed(updates);
    // Not ready yet: below the total (two steps per busy spell of the server).
    expect(updates.at(-1)!.progress).toBeLessThan(updates.at(-1)!.total!);
  });

  it('ends at its total when the server is ready', async () => {
    ws = faultWorkspace();
    broker = createBroker({ servers: [faultEntry(['--progress=300'], INDEXING)], cacheDir: ws.cacheDir, logger });
    const updates: ProgressUpdate[] = [];
    relay = relayProgress(broker, (p) => updates.push(p), { heartbeatMs: 50 });
    const session = await broker.sessionFor(ws.file, ws.root);
    await session.requestRaw('fault/stats', {});
    expect(await session.waitReady()).toBe('ready');
    await waitFor(() => updates.some((u) => u.message?.startsWith('fault: ready')), 'the ready update');
    expectWellFormed(updates);
    const ready = updates.findIndex((u) => u.message?.startsWith('fault: ready'));
    expect(updates[ready]).toMatchObject({ progress: 2, total: 2 });
  });

  it('keeps beating while a call works after its servers are ready', async () => {
    ws = faultWorkspace();
    broker = createBroker({ servers: [faultEntry([])], cacheDir: ws.cacheDir, logger });
    const updates: ProgressUpdate[] = [];
    relay = relayProgress(broker, (p) => updates.push(p), { heartbeatMs: 50 });
    await waitFor(() => updates.filter((u) => /^working for \d+ s$/.test(u.message ?? '')).length >= 3, 'three working heartbeats');
    expectWellFormed(updates);
  });

  it("passes an operation's own units and total through", async () => {
    ws = faultWorkspace();
    broker = createBroker({ servers: [faultEntry([])], cacheDir: ws.cacheDir, logger });
    const updates: ProgressUpdate[] = [];
    relay = relayProgress(broker, (p) => updates.push(p), { heartbeatMs: 50 });
    relay.progress({ progress: 1, total: 10, message: 'file 1 of 10' });
    relay.progress({ progress: 5, total: 10, message: 'file 5 of 10' });
    expect(updates).toEqual([
      { progress: 1, total: 10, message: 'file 1 of 10' },
      { progress: 5, total: 10, message: 'file 5 of 10' },
    ]);
  });
});
