import { afterEach, describe, expect, it } from 'vitest';
import { type DocumentSymbol, DocumentSymbolRequest } from 'vscode-languageserver-protocol';

import { faultEntry, faultWorkspace } from '../../fixtures/fault-server/entry.js';
import { createBroker, type SessionBroker } from '../../src/broker/broker.js';
import type { ServerEntryInput } from '../../src/config/schema.js';
import type { TraceEvent } from '../../src/lsp/types.js';
import { createLogger } from '../../src/util/logger.js';
import { caught } from '../helpers/errors.js';

const logger = createLogger('test', 'error');
type Stats = {
  requests: Record<string, number>;
  replies: Record<string, { result?: unknown; error?: number }>;
  open: { uri: string; version: number; length: number }[];
};

describe('protocol behaviour against the fault server', () => {
  let broker: SessionBroker | undefined;
  let ws: ReturnType<typeof faultWorkspace> | undefined;
  afterEach(async () => {
    await broker?.stop();
    ws?.cleanup();
  });

  async function open(args: string[], over: Partial<ServerEntryInput> = {}) {
    ws = faultWorkspace();
    broker = createBroker({ servers: [faultEntry(args, over)], cacheDir: ws.cacheDir, logger });
    const s = await broker.sessionFor(ws.file, ws.root);
    return { s, file: ws.file };
  }

  it('ContentModified once: re-sync and retry succeed', async () => {
    const { s, file } = await open(['--content-modified=1']);
    const doc = await s.syncDocument(file);
    const symbols = (await s.request(DocumentSymbolRequest.type, { textDocument: { uri: doc.uri } })) as DocumentSymbol[];
    expect(symbols[0]!.name).toBe('FaultSymbol');
    const stats = (await s.requestRaw('fault/stats', {})) as Stats;
    expect(stats.requests['textDocument/documentSymbol']).toBe(2);
  });

  it('ContentModified twice: CONTENT_MODIFIED after exactly one retry, never an empty answer', async () => {
    const { s, file } = await open(['--content-modified=5']);
    const doc = await s.syncDocument(file);
    const err = await caught(s.request(DocumentSymbolRequest.type, { textDocument: { uri: doc.uri } }));
    expect(err.code).toBe('CONTENT_MODIFIED');
    expect(err.details).toMatchObject({ lspCode: -32801, retried: true });
    const stats = (await s.requestRaw('fault/stats', {})) as Stats;
    expect(stats.requests['textDocument/documentSymbol']).toBe(2);
  });

  it('ServerCancelled is treated like ContentModified', async () => {
    const { s, file } = await open(['--server-cancelled=2']);
    const doc = await s.syncDocument(file);
    const err = await caught(s.request(DocumentSymbolRequest.type, { textDocument: { uri: doc.uri } }));
    expect(err.code).toBe('CONTENT_MODIFIED');
    expect(err.details?.lspCode).toBe(-32802);
  });

  it('the retry re-syncs a document that changed on disk', async () => {
    const { s, file } = await open(['--content-modified=1']);
    const doc = await s.syncDocument(file);
    const { writeFileSync } = await import('node:fs');
    writeFileSync(file, 'changed on disk, longer than before\n');
    await s.request(DocumentSymbolRequest.type, { textDocument: { uri: doc.uri } });
    const stats = (await s.requestRaw('fault/stats', {})) as Stats;
    expect(stats.open[0]).toMatchObject({ version: doc.version + 1, length: 'changed on disk, longer than before\n'.length });
  });

  it('didClose, didChangeWatchedFiles and state-change events reach their targets', async () => {
    const { s, file } = await open([]);
    const states: string[] = [];
    const off = s.onStateChange((st) => states.push(st));
    const doc = await s.syncDocument(file);
    await s.request(DocumentSymbolRequest.type, { textDocument: { uri: doc.uri } });
    expect(states).toEqual(['ready']); // first-reply readiness
    s.notifyFilesChanged([
      { path: file, type: 'changed' },
      { path: file + '.new', type: 'created' },
      { path: file + '.old', type: 'deleted' },
    ]);
    await s.closeDocument(file);
    expect(s.getDocument(file)).toBeUndefined();
    const stats = (await s.requestRaw('fault/stats', {})) as Stats & { watched: { uri: string; type: number }[] };
    expect(stats.open).toEqual([]);
    expect(stats.watched.map((w) => w.type)).toEqual([2, 1, 3]);
    expect(stats.watched[0]!.uri).toBe(doc.uri);
    off();
    await broker!.stop();
    expect(states).toEqual(['ready']);
    expect(s.state).toBe('stopped');
  });

  it('MethodNotFound is NOT_SUPPORTED', async () => {
    const { s } = await open([]);
    const err = await caught(s.requestRaw('textDocument/prepareCallHierarchy', { textDocument: { uri: 'file:///x' }, position: { line: 0, character: 0 } }));
    expect(err.code).toBe('NOT_SUPPORTED');
    expect(err.details?.lspCode).toBe(-32601);
  });

  it('answers every server→client request', async () => {
    const { s } = await open(['--server-requests'], { settings: { fault: { answer: 42 } } });
    let stats: Stats | undefined;
    for (let i = 0; i < 50; i++) {
      stats = (await s.requestRaw('fault/stats', {})) as Stats;
      if (Object.keys(stats.replies).length >= 7) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(stats!.replies).toEqual({
      'workspace/configuration': { result: [42, null, { fault: { answer: 42 } }] },
      'client/registerCapability': { result: null },
      'window/workDoneProgress/create': { result: null },
      'workspace/workspaceFolders': { result: [{ uri: expect.stringMatching(/^file:\/\/\//), name: expect.any(String) }] },
      'window/showMessageRequest': { result: null },
      'workspace/applyEdit': { result: { applied: false, failureReason: 'lspgate is read-only' } },
      'fault/unknownClientMethod': { error: -32601 },
    });
  });

  it('progress that never ends: waitReady answers indexing at the budget, info() shows the open progress', async () => {
    const { s } = await open(['--progress-never-ends'], { readiness: { kind: 'progress', titlePattern: 'Indexing', quietMs: 200 } });
    expect(await s.waitReady(600)).toBe('indexing');
    expect(s.state).toBe('indexing');
    expect(s.info().progress).toEqual(['Indexing fault']);
  });

  it('progress that ends: ready when it ends', async () => {
    const { s } = await open(['--progress=300'], { readiness: { kind: 'progress', titlePattern: 'Indexing', quietMs: 5000 } });
    expect(await s.waitReady(3000)).toBe('ready'); // before quietMs: only the progress end can make it ready
    expect(s.info().progress).toEqual([]);
  });

  it('trace reports requests and responses with durations', async () => {
    const { s, file } = await open([]);
    const events: TraceEvent[] = [];
    s.onTrace((e) => events.push(e));
    const doc = await s.syncDocument(file);
    await s.request(DocumentSymbolRequest.type, { textDocument: { uri: doc.uri } });
    s.onTrace(undefined);
    const sent = events.find((e) => e.direction === 'send' && e.method === 'textDocument/documentSymbol')!;
    const got = events.find((e) => e.direction === 'receive' && e.kind === 'response' && e.id === sent.id)!;
    expect(got.method).toBe('textDocument/documentSymbol');
    expect(typeof got.durationMs).toBe('number');
    expect(events.some((e) => e.method === 'textDocument/didOpen')).toBe(true);
  });

  it('refuses files over maxFileBytes with LIMIT_EXCEEDED', async () => {
    ws = faultWorkspace();
    broker = createBroker({
      servers: [faultEntry([])],
      cacheDir: ws.cacheDir,
      logger,
      limits: { ...(await import('../../src/config/schema.js')).LimitsSchema.parse({}), maxFileBytes: 10 },
    });
    const s = await broker.sessionFor(ws.file, ws.root);
    const err = await caught(s.syncDocument(ws.file));
    expect(err.code).toBe('LIMIT_EXCEEDED');
    expect(err.details).toMatchObject({ limit: 'maxFileBytes', max: 10 });
  });

  it('SERVER_NOT_INSTALLED with the install hint for a missing command', async () => {
    ws = faultWorkspace();
    broker = createBroker({ servers: [faultEntry([], { command: 'lspgate-no-such-server', args: [] })], cacheDir: ws.cacheDir, logger });
    const err = await caught(broker.sessionFor(ws.file, ws.root));
    expect(err.code).toBe('SERVER_NOT_INSTALLED');
    expect(err.details).toEqual({ server: 'fault', install: 'it is in fixtures/fault-server' });
  });
});
