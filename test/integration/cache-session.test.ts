/**
 * CachedSession over a real server process (the fault-injection server, which counts the requests
 * it receives): hits, coalescing, invalidation on changed content, a restart's new generation,
 * and no caching while the server is indexing.
 */
import fs from 'node:fs';
import path from 'node:path';

import { afterEach, describe, expect, it } from 'vitest';
import { DefinitionRequest, DocumentSymbolRequest, HoverRequest } from 'vscode-languageserver-protocol';

import { faultEntry, faultWorkspace } from '../../fixtures/fault-server/entry.js';
import { createBroker, type SessionBroker } from '../../src/broker/broker.js';
import { withResponseCache } from '../../src/cache/cached-broker.js';
import { CachedSession, createCachedSession } from '../../src/cache/cached-session.js';
import { ResponseCache } from '../../src/cache/response-cache.js';
import type { ServerEntryInput } from '../../src/config/schema.js';
import type { LspSession } from '../../src/lsp/types.js';
import { createLogger } from '../../src/util/logger.js';

const logger = createLogger('test', 'error');
type Stats = { pid: number; requests: Record<string, number> };

async function serverCount(s: LspSession, method: string): Promise<number> {
  const stats = (await s.requestRaw('fault/stats', {})) as Stats;
  return stats.requests[method] ?? 0;
}

describe('CachedSession over a real server', () => {
  let broker: SessionBroker | undefined;
  let ws: ReturnType<typeof faultWorkspace> | undefined;
  afterEach(async () => {
    await broker?.stop();
    ws?.cleanup();
  });

  async function open(args: string[] = [], over: Partial<ServerEntryInput> = {}) {
    ws = faultWorkspace();
    broker = createBroker({ servers: [faultEntry(args, over)], cacheDir: ws.cacheDir, logger });
    const inner = await broker.sessionFor(ws.file, ws.root);
    const cache = new ResponseCache({ maxBytes: 1 << 20 });
    const session = createCachedSession(inner, cache, { store: true });
    const doc = await session.syncDocument(ws.file);
    return { session, cache, uri: doc.uri, file: ws.file };
  }

  it('answers a repeated request from the cache, with one server round trip', async () => {
    const { session, cache, uri } = await open();
    expect(await session.waitReady()).toBe('ready');
    const params = { textDocument: { uri }, position: { line: 0, character: 1 } };
    const first = await session.request(DefinitionRequest.type, params);
    const second = await session.request(DefinitionRequest.type, params);
    expect(second).toEqual(first);
    expect(await serverCount(session, 'textDocument/definition')).toBe(1);
    expect(cache.stats()).toMatchObject({ hits: 1, misses: 1 });
    // A different position is a different question.
    await session.request(DefinitionRequest.type, { ...params, position: { line: 1, character: 0 } });
    expect(await serverCount(session, 'textDocument/definition')).toBe(2);
  });

  it('coalesces identical concurrent requests into one round trip', async () => {
    const { session, cache, uri } = await open();
    await session.waitReady();
    const params = { textDocument: { uri } };
    // The session's own readiness probe (first-reply) may have asked documentSymbol already.
    const before = await serverCount(session, 'textDocument/documentSymbol');
    const answers = await Promise.all([1, 2, 3].map(() => session.request(DocumentSymbolRequest.type, params)));
    expect(answers[1]).toEqual(answers[0]);
    expect(answers[2]).toEqual(answers[0]);
    expect(await serverCount(session, 'textDocument/documentSymbol')).toBe(before + 1);
    expect(cache.stats().coalesced).toBe(2);
  });

  it('asks the server again after syncDocument changed the content', async () => {
    const { session, uri, file } = await open();
    await session.waitReady();
    const sym = { textDocument: { uri } };
    const hover = { textDocument: { uri }, position: { line: 0, character: 1 } };
    const before = await serverCount(session, 'textDocument/documentSymbol');
    await session.request(DocumentSymbolRequest.type, sym);
    await session.request(HoverRequest.type, hover);
    // Same content again: still cached.
    await session.syncDocument(file);
    await session.request(DocumentSymbolRequest.type, sym);
    await session.request(HoverRequest.type, hover);
    expect(await serverCount(session, 'textDocument/documentSymbol')).toBe(before + 1);
    expect(await serverCount(session, 'textDocument/hover')).toBe(1);

    fs.writeFileSync(file, 'fault file changed\n');
    await session.syncDocument(file);
    await session.request(DocumentSymbolRequest.type, sym);
    await session.request(HoverRequest.type, hover);
    expect(await serverCount(session, 'textDocument/documentSymbol')).toBe(before + 2);
    expect(await serverCount(session, 'textDocument/hover')).toBe(2);

    // Same size, new bytes (the unchanged-on-disk shortcut compares mtime, size and inode).
    const v = session.getDocument(file)!.version;
    fs.writeFileSync(file, 'fault file CHANGED\n');
    expect((await session.syncDocument(file)).version).toBe(v + 1);
    await session.request(HoverRequest.type, hover);
    expect(await serverCount(session, 'textDocument/hover')).toBe(3);
  });

  it('drops workspace-wide answers when another file changes, keeps the document-local ones', async () => {
    const { session, uri } = await open();
    await session.waitReady();
    const other = path.join(ws!.root, 'b.fault');
    fs.writeFileSync(other, 'other\n');
    await session.syncDocument(other);
    const sym = { textDocument: { uri } };
    const def = { textDocument: { uri }, position: { line: 0, character: 1 } };
    const before = await serverCount(session, 'textDocument/documentSymbol');
    await session.request(DocumentSymbolRequest.type, sym);
    await session.request(DefinitionRequest.type, def);
    fs.writeFileSync(other, 'other, edited\n');
    await session.syncDocument(other);
    await session.request(DocumentSymbolRequest.type, sym);
    await session.request(DefinitionRequest.type, def);
    expect(await serverCount(session, 'textDocument/documentSymbol')).toBe(before + 1);
    expect(await serverCount(session, 'textDocument/definition')).toBe(2);
    session.notifyFilesChanged([{ path: other, type: 'deleted' }]);
    await session.request(DefinitionRequest.type, def);
    expect(await serverCount(session, 'textDocument/definition')).toBe(3);
  });

  it('openInsensitive: an open keeps the answers, but one that may widen the project (widens) does not', async () => {
    const { session, uri } = await open([], { openInsensitive: true });
    await session.waitReady();
    const def = { textDocument: { uri }, position: { line: 0, character: 1 } };
    const opened = (name: string) => {
      const abs = path.join(ws!.root, name);
      fs.writeFileSync(abs, `${name}\n`);
      return abs;
    };
    await session.request(DefinitionRequest.type, def);
    await session.syncDocument(opened('b.fault'));
    await session.request(DefinitionRequest.type, def);
    expect(await serverCount(session, 'textDocument/definition')).toBe(1);
    // a callers walk opening a file outside the server's project: tsserver's references grow
    const c = opened('c.fault');
    await session.syncDocument(c, undefined, { widens: true });
    await session.request(DefinitionRequest.type, def);
    expect(await serverCount(session, 'textDocument/definition')).toBe(2);
    // relied on again while still open: the epoch already counts it
    await session.syncDocument(c, undefined, { widens: true });
    await session.request(DefinitionRequest.type, def);
    expect(await serverCount(session, 'textDocument/definition')).toBe(2);
  });

  it('a restarted server (new generation) is asked again', async () => {
    const { session, uri } = await open();
    await session.waitReady();
    const def = { textDocument: { uri }, position: { line: 0, character: 1 } };
    await session.request(DefinitionRequest.type, def);
    const firstPid = session.pid;
    expect(session.generation).toBe(1);
    await expect(session.requestRaw('fault/crash', {})).rejects.toMatchObject({ code: 'SERVER_CRASHED' });
    await session.request(DefinitionRequest.type, def);
    expect(session.generation).toBe(2);
    expect(session.pid).not.toBe(firstPid);
    // The new process got the definition request itself: the old generation's answer was not used.
    expect(await serverCount(session, 'textDocument/definition')).toBe(1);
  });

  it('never caches an answer given while the server is indexing', async () => {
    const { session, cache, uri } = await open(['--progress-never-ends'], {
      readiness: { kind: 'progress', titlePattern: 'Indexing', quietMs: 60_000 },
    });
    expect(await session.waitReady(300)).toBe('indexing');
    expect(session.state).toBe('indexing');
    const def = { textDocument: { uri }, position: { line: 0, character: 1 } };
    await session.request(DefinitionRequest.type, def);
    await session.request(DefinitionRequest.type, def);
    expect(await serverCount(session, 'textDocument/definition')).toBe(2);
    expect(cache.stats()).toMatchObject({ hits: 0, stored: 0 });
  });

  it('withResponseCache hands out one cached wrapper per session', async () => {
    ws = faultWorkspace();
    broker = createBroker({ servers: [faultEntry([])], cacheDir: ws.cacheDir, logger });
    const cache = new ResponseCache({ maxBytes: 1 << 20 });
    const cached = withResponseCache(broker, cache);
    expect(withResponseCache(cached, cache)).toBe(cached);
    const a = await cached.sessionFor(ws.file, ws.root);
    const b = await cached.session('fault', ws.root);
    expect(a).toBeInstanceOf(CachedSession);
    expect(b).toBe(a);
    expect(cached.existing()).toEqual([a]);
    const doc = await a.syncDocument(ws.file);
    await a.waitReady();
    const def = { textDocument: { uri: doc.uri }, position: { line: 0, character: 2 } };
    await a.request(DefinitionRequest.type, def);
    await b.request(DefinitionRequest.type, def);
    expect(await serverCount(a, 'textDocument/definition')).toBe(1);
    expect(cache.stats().hits).toBe(1);
  });
});
