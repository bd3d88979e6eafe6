import { afterEach, describe, expect, it } from 'vitest';
import { type DocumentSymbol, DocumentSymbolRequest, HoverRequest } from 'vscode-languageserver-protocol';

import { faultEntry, faultWorkspace } from '../../fixtures/fault-server/entry.js';
import { alive, groupMembers, processGroup, waitFor } from '../../fixtures/fault-server/proc-utils.js';
import { createBroker, type SessionBroker } from '../../src/broker/broker.js';
import { createLogger } from '../../src/util/logger.js';
import { caught } from '../helpers/errors.js';

const logger = createLogger('test', 'error');
type Stats = { cancels: (number | string)[]; requests: Record<string, number> };

describe('a server that hangs', () => {
  let broker: SessionBroker | undefined;
  let ws: ReturnType<typeof faultWorkspace> | undefined;
  afterEach(async () => {
    await broker?.stop();
    ws?.cleanup();
  });

  it('times out at the deadline, sends $/cancelRequest, and other requests keep flowing', async () => {
    ws = faultWorkspace();
    broker = createBroker({ servers: [faultEntry(['--hang-on=textDocument/hover'], { timeouts: { requestMs: 800 } })], cacheDir: ws.cacheDir, logger });
    const s = await broker.sessionFor(ws.file, ws.root);
    const doc = await s.syncDocument(ws.file);
    const hover = caught(s.request(HoverRequest.type, { textDocument: { uri: doc.uri }, position: { line: 0, character: 0 } }));
    // while the hover hangs, documentSymbol answers
    const symbols = (await s.request(DocumentSymbolRequest.type, { textDocument: { uri: doc.uri } })) as DocumentSymbol[];
    expect(symbols[0]!.name).toBe('FaultSymbol');
    const err = await hover;
    expect(err.code).toBe('TIMEOUT');
    expect(err.details).toMatchObject({ method: 'textDocument/hover', timeoutMs: 800 });
    const stats = (await s.requestRaw('fault/stats', {})) as Stats;
    expect(stats.cancels).toHaveLength(1);
    expect(s.generation).toBe(1);
    expect(s.state).toBe('ready');
  });

  it('an abort signal cancels with CANCELLED and $/cancelRequest', async () => {
    ws = faultWorkspace();
    broker = createBroker({ servers: [faultEntry(['--hang-on=textDocument/hover'], { timeouts: { requestMs: 60_000 } })], cacheDir: ws.cacheDir, logger });
    const s = await broker.sessionFor(ws.file, ws.root);
    const doc = await s.syncDocument(ws.file);
    const ac = new AbortController();
    const pending = caught(s.request(HoverRequest.type, { textDocument: { uri: doc.uri }, position: { line: 0, character: 0 } }, { signal: ac.signal }));
    await s.requestRaw('fault/stats', {}); // the hover is on the wire before we abort
    ac.abort();
    expect((await pending).code).toBe('CANCELLED');
    const stats = (await s.requestRaw('fault/stats', {})) as Stats;
    expect(stats.cancels).toHaveLength(1);
  });

  it('per-server concurrency: requests beyond the limit wait in a queue (and time out there, unsent)', async () => {
    ws = faultWorkspace();
    const { LimitsSchema } = await import('../../src/config/schema.js');
    broker = createBroker({
      servers: [
        faultEntry(['--hang-on=textDocument/hover'], {
          timeouts: { requestMs: 1000 },
          restart: { maxConsecutiveTimeouts: 100, maxCrashes: 5, windowMs: 180_000 },
        }),
      ],
      cacheDir: ws.cacheDir,
      logger,
      limits: LimitsSchema.parse({ perServerConcurrency: 2 }),
    });
    const s = await broker.sessionFor(ws.file, ws.root);
    const doc = await s.syncDocument(ws.file);
    const params = { textDocument: { uri: doc.uri }, position: { line: 0, character: 0 } };
    // two fill the slots; the third, with a shorter deadline, is still queued when it expires
    const errs = await Promise.all([1000, 1000, 400].map((timeoutMs) => caught(s.request(HoverRequest.type, params, { timeoutMs }))));
    expect(errs.map((e) => e.code)).toEqual(['TIMEOUT', 'TIMEOUT', 'TIMEOUT']);
    expect(errs.map((e) => e.details?.queued === true)).toEqual([false, false, true]);
    const stats = (await s.requestRaw('fault/stats', {})) as Stats;
    expect(stats.requests['textDocument/hover']).toBe(2);
    expect(stats.cancels).toHaveLength(2);
  });

  it('kills and respawns the server after maxConsecutiveTimeouts timeouts', async () => {
    ws = faultWorkspace();
    broker = createBroker({
      servers: [
        faultEntry(['--hang-on=textDocument/hover'], {
          timeouts: { requestMs: 300 },
          restart: { maxConsecutiveTimeouts: 3, maxCrashes: 5, windowMs: 180_000 },
        }),
      ],
      cacheDir: ws.cacheDir,
      logger,
    });
    const s = await broker.sessionFor(ws.file, ws.root);
    const doc = await s.syncDocument(ws.file);
    const pid = processGroup(s.pid!);
    const params = { textDocument: { uri: doc.uri }, position: { line: 0, character: 0 } };
    for (let i = 0; i < 2; i++) expect((await caught(s.request(HoverRequest.type, params))).code).toBe('TIMEOUT');
    expect(s.generation).toBe(1);
    expect(alive(pid)).toBe(true);
    expect((await caught(s.request(HoverRequest.type, params))).code).toBe('TIMEOUT');
    expect(await waitFor(() => groupMembers(pid).length === 0, 5000)).toBe(true);
    const symbols = (await s.request(DocumentSymbolRequest.type, { textDocument: { uri: doc.uri } })) as DocumentSymbol[];
    expect(symbols[0]!.name).toBe('FaultSymbol');
    expect(s.generation).toBe(2);
    expect(processGroup(s.pid!)).not.toBe(pid);
    expect(broker.info()[0]!.lastError).toMatch(/3 consecutive request timeouts/);
  });

  it('a slow initialize past startMs is SERVER_START_FAILED, and the process is killed', async () => {
    ws = faultWorkspace();
    broker = createBroker({ servers: [faultEntry(['--slow-initialize=30000'], { timeouts: { startMs: 500 } })], cacheDir: ws.cacheDir, logger });
    const err = await caught(broker.sessionFor(ws.file, ws.root));
    expect(err.code).toBe('SERVER_START_FAILED');
    expect(err.message).toMatch(/initialize within 500 ms/);
    const s = broker.existing()[0]!;
    expect(await waitFor(() => s.state === 'crashed', 5000)).toBe(true);
  });

  it('a shutdown that hangs: the process tree is killed after shutdownMs', async () => {
    ws = faultWorkspace();
    broker = createBroker({
      servers: [faultEntry(['--hang-shutdown', '--ignore-stdin-eof'], { timeouts: { shutdownMs: 500 } })],
      cacheDir: ws.cacheDir,
      logger,
    });
    const s = await broker.sessionFor(ws.file, ws.root);
    const members = groupMembers(processGroup(s.pid!));
    expect(members.length).toBeGreaterThanOrEqual(2); // reaper + server
    await broker.stop();
    expect(s.state).toBe('stopped');
    expect(await waitFor(() => members.every((p) => !alive(p)), 5000)).toBe(true);
  });
});
