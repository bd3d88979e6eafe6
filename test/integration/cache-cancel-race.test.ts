/**
 * A cancelled call must not spoil the next identical one. Identical concurrent requests
 * share one server round trip (the response cache's in-flight coalescing); when its last waiter
 * cancels, the round trip is aborted ($/cancelRequest) but stays in the in-flight map until it
 * settles. A new, uncancelled caller arriving in that window must get a fresh request and a real
 * answer, never the aborted round trip's CANCELLED. The fault server answers definition slowly so
 * the window is open; the second caller is issued right after the abort, in the same tick.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { DefinitionRequest } from 'vscode-languageserver-protocol';

import { faultEntry, faultWorkspace } from '../../fixtures/fault-server/entry.js';
import { createBroker, type SessionBroker } from '../../src/broker/broker.js';
import { createCachedSession } from '../../src/cache/cached-session.js';
import { ResponseCache } from '../../src/cache/response-cache.js';
import type { LspSession } from '../../src/lsp/types.js';
import { createLogger } from '../../src/util/logger.js';

const logger = createLogger('test', 'error');
type Stats = { requests: Record<string, number>; cancels: unknown[] };

async function stats(s: LspSession): Promise<Stats> {
  return (await s.requestRaw('fault/stats', {})) as Stats;
}

/** Polls the server's own request count (bounded, to fail instead of hanging). */
async function untilServerHas(s: LspSession, definitions: number): Promise<void> {
  for (let i = 0; ((await stats(s)).requests['textDocument/definition'] ?? 0) < definitions; i++) {
    if (i > 500) throw new Error(`the server never received ${definitions} definition request(s)`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('cancelling a coalesced request', () => {
  let broker: SessionBroker | undefined;
  let ws: ReturnType<typeof faultWorkspace> | undefined;
  afterEach(async () => {
    await broker?.stop();
    ws?.cleanup();
  });

  it('a new caller never joins the aborted in-flight request', async () => {
    ws = faultWorkspace();
    broker = createBroker({ servers: [faultEntry(['--slow-on=textDocument/definition', '--slow-ms=1500'])], cacheDir: ws.cacheDir, logger });
    const inner = await broker.sessionFor(ws.file, ws.root);
    const cache = new ResponseCache({ maxBytes: 1 << 20 });
    const session = createCachedSession(inner, cache, { store: true });
    const { uri } = await session.syncDocument(ws.file);
    expect(await session.waitReady()).toBe('ready');
    const params = { textDocument: { uri }, position: { line: 0, character: 1 } };

    const cancelled = new AbortController();
    const first = session.request(DefinitionRequest.type, params, { signal: cancelled.signal }).then(
      () => 'answered',
      (e: { code?: string }) => e.code,
    );
    // The server has the request and sits on it: the shared round trip is in flight.
    await untilServerHas(session, 1);
    cancelled.abort();
    const second = session.request(DefinitionRequest.type, params);

    expect(await first).toBe('CANCELLED');
    const answer = (await second) as { uri: string }[] | { uri: string };
    expect(Array.isArray(answer) ? answer[0]?.uri : answer.uri).toBe(uri);
    const s = await stats(session);
    // Two round trips: the cancelled one ($/cancelRequest sent) and the second caller's own.
    expect(s.requests['textDocument/definition']).toBe(2);
    expect(s.cancels.length).toBe(1);
    expect(cache.stats().coalesced).toBe(0);
  });
});
