import { afterEach, describe, expect, it } from 'vitest';
import { DefinitionRequest, type DocumentSymbol, DocumentSymbolRequest } from 'vscode-languageserver-protocol';

import { faultEntry, faultWorkspace } from '../../fixtures/fault-server/entry.js';
import { alive, waitFor } from '../../fixtures/fault-server/proc-utils.js';
import { createBroker, type SessionBroker } from '../../src/broker/broker.js';
import { createLogger } from '../../src/util/logger.js';
import { caught } from '../helpers/errors.js';

const logger = createLogger('test', 'error');
type Stats = { pid: number; open: { uri: string; version: number }[] };

describe('a server that crashes mid-request', () => {
  let broker: SessionBroker | undefined;
  let ws: ReturnType<typeof faultWorkspace> | undefined;
  afterEach(async () => {
    await broker?.stop();
    ws?.cleanup();
  });

  it('fails the pending call with SERVER_CRASHED, restarts, re-syncs documents, then answers', async () => {
    ws = faultWorkspace();
    // requestMs far above the test timeout: only exit detection can settle the call in time
    broker = createBroker({
      servers: [faultEntry(['--crash-on=textDocument/definition'], { timeouts: { requestMs: 120_000 } })],
      cacheDir: ws.cacheDir,
      logger,
    });
    const s = await broker.sessionFor(ws.file, ws.root);
    const doc = await s.syncDocument(ws.file);
    const firstPid = s.pid!;
    expect(s.generation).toBe(1);

    const err = await caught(s.request(DefinitionRequest.type, { textDocument: { uri: doc.uri }, position: { line: 0, character: 0 } }));
    expect(err.code).toBe('SERVER_CRASHED');
    expect(err.details?.exitCode).toBe(3);
    expect(s.state).toBe('crashed');
    expect(await waitFor(() => !alive(firstPid), 5000)).toBe(true);

    const symbols = (await s.request(DocumentSymbolRequest.type, { textDocument: { uri: doc.uri } })) as DocumentSymbol[];
    expect(symbols[0]!.name).toBe('FaultSymbol');
    expect(s.generation).toBe(2);
    expect(s.pid).not.toBe(firstPid);
    const stats = (await s.requestRaw('fault/stats', {})) as Stats;
    expect(stats.open.map((d) => d.uri)).toEqual([doc.uri]);
    expect(stats.open[0]!.version).toBeGreaterThan(doc.version);
    expect(broker.info()[0]).toMatchObject({ state: 'ready', generation: 2, crashes: 1 });
  });

  it('all pending requests settle at once when the process exits', async () => {
    ws = faultWorkspace();
    broker = createBroker({ servers: [faultEntry(['--hang-on=textDocument/hover'], { timeouts: { requestMs: 120_000 } })], cacheDir: ws.cacheDir, logger });
    const s = await broker.sessionFor(ws.file, ws.root);
    const doc = await s.syncDocument(ws.file);
    const hovers = [0, 1, 2].map(() => caught(s.requestRaw('textDocument/hover', { textDocument: { uri: doc.uri }, position: { line: 0, character: 0 } })));
    await caught(s.requestRaw('fault/crash', {}));
    const errs = await Promise.all(hovers);
    expect(errs.map((e) => e.code)).toEqual(['SERVER_CRASHED', 'SERVER_CRASHED', 'SERVER_CRASHED']);
    expect(errs[0]!.details?.exitCode).toBe(4);
  });

  it('gives up after maxCrashes in the window: failed, with a clear error in info()', async () => {
    ws = faultWorkspace();
    broker = createBroker({
      servers: [faultEntry(['--crash-on=textDocument/definition', '--stderr=fault server says hello'], { restart: { maxCrashes: 5, windowMs: 180_000 } })],
      cacheDir: ws.cacheDir,
      logger,
    });
    const s = await broker.sessionFor(ws.file, ws.root);
    const doc = await s.syncDocument(ws.file);
    const params = { textDocument: { uri: doc.uri }, position: { line: 0, character: 0 } };
    for (let i = 1; i <= 5; i++) {
      const e = await caught(s.request(DefinitionRequest.type, params));
      expect(e.code).toBe('SERVER_CRASHED');
    }
    expect(s.state).toBe('failed');
    const e = await caught(s.request(DocumentSymbolRequest.type, { textDocument: { uri: doc.uri } }));
    expect(e.code).toBe('SERVER_FAILED');
    expect(e.message).toMatch(/crashed 5 times/);
    expect(e.message).toMatch(/fault server says hello/);
    const again = await caught(broker.sessionFor(ws.file, ws.root));
    expect(again.code).toBe('SERVER_FAILED');
    const info = broker.info()[0]!;
    expect(info.state).toBe('failed');
    expect(info.crashes).toBe(5);
    expect(info.lastError).toMatch(/crashed 5 times/);
  });
});
