import { afterEach, describe, expect, it } from 'vitest';
import { DefinitionRequest, type DocumentSymbol, DocumentSymbolRequest, type Location } from 'vscode-languageserver-protocol';

import { faultEntry, faultWorkspace } from '../../fixtures/fault-server/entry.js';
import { waitFor } from '../../fixtures/fault-server/proc-utils.js';
import { createBroker, type SessionBroker } from '../../src/broker/broker.js';
import type { Session } from '../../src/lsp/session.js';
import { createLogger } from '../../src/util/logger.js';
import { caught } from '../helpers/errors.js';

const logger = createLogger('test', 'error');

describe('garbage, oversized frames and floods on stdout', () => {
  let broker: SessionBroker | undefined;
  let ws: ReturnType<typeof faultWorkspace> | undefined;
  afterEach(async () => {
    await broker?.stop();
    ws?.cleanup();
  });

  async function open(args: string[], requestMs = 5000, protocol = {}): Promise<{ s: Session; uri: string }> {
    ws = faultWorkspace();
    broker = createBroker({ servers: [faultEntry(args, { timeouts: { requestMs } })], cacheDir: ws.cacheDir, logger, protocol });
    const s = (await broker.sessionFor(ws.file, ws.root)) as Session;
    const doc = await s.syncDocument(ws.file);
    return { s, uri: doc.uri };
  }

  const defParams = (uri: string) => ({ textDocument: { uri }, position: { line: 0, character: 0 } });

  // Framing that cannot be trusted: the server is reset (pending call: SERVER_CRASHED with the
  // reason), and the next call runs on a fresh process.
  for (const kind of ['log-line', 'no-length', 'bad-length', 'huge-length']) {
    it(`${kind}: resets the session, then the next call succeeds`, async () => {
      const { s, uri } = await open([`--garbage=${kind}`], 60_000, { maxMessageBytes: 1024 * 1024 });
      const rssBefore = process.memoryUsage().rss;
      const err = await caught(s.request(DefinitionRequest.type, defParams(uri)));
      expect(err.code).toBe('SERVER_CRASHED');
      expect(err.details?.reason).toMatch(/protocol violation/);
      if (kind === 'huge-length') {
        expect(err.details?.reason).toMatch(/exceeds the 1048576-byte message limit/);
        // the announced ~1 TB (and the 64 MiB streamed after it) were never buffered
        expect(process.memoryUsage().rss - rssBefore).toBeLessThan(48 * 1024 * 1024);
      }
      const symbols = (await s.request(DocumentSymbolRequest.type, { textDocument: { uri } })) as DocumentSymbol[];
      expect(symbols[0]!.name).toBe('FaultSymbol');
      expect(s.generation).toBe(2);
    });
  }

  it('partial frame: the pending call times out, then the stalled stream resets the server', async () => {
    const { s, uri } = await open(['--garbage=partial'], 400, { partialFrameMs: 1000 });
    const err = await caught(s.request(DefinitionRequest.type, defParams(uri)));
    expect(err.code).toBe('TIMEOUT');
    // the body never completes: after partialFrameMs the stream is declared lost
    expect(await waitFor(() => s.state === 'crashed', 5000)).toBe(true);
    const symbols = (await s.request(DocumentSymbolRequest.type, { textDocument: { uri } })) as DocumentSymbol[];
    expect(symbols[0]!.name).toBe('FaultSymbol');
    expect(s.generation).toBe(2);
    expect(s.info().lastError).toMatch(/message body incomplete/);
  });

  it('invalid JSON in a well-framed message: dropped and counted, the session lives on', async () => {
    const { s, uri } = await open(['--garbage=invalid-json'], 500);
    const err = await caught(s.request(DefinitionRequest.type, defParams(uri)));
    expect(err.code).toBe('TIMEOUT');
    expect(s.protocolStats.readErrors).toBe(1);
    const symbols = (await s.request(DocumentSymbolRequest.type, { textDocument: { uri } })) as DocumentSymbol[];
    expect(symbols[0]!.name).toBe('FaultSymbol');
    expect(s.generation).toBe(1);
  });

  it('invalid UTF-8 inside a message: decoded with replacement characters, the answer arrives', async () => {
    const { s, uri } = await open(['--garbage=invalid-utf8']);
    const loc = (await s.request(DefinitionRequest.type, defParams(uri))) as Location & { note: string };
    expect(loc.uri).toBe('file:///x');
    expect(loc.note).toContain('\uFFFD');
    expect(s.generation).toBe(1);
  });

  it('a stderr flood is kept in a bounded ring', async () => {
    const { s } = await open(['--stderr-flood=16']);
    const heapBefore = process.memoryUsage().heapUsed;
    await s.requestRaw('fault/stderr', {});
    expect(await waitFor(() => s.stderrTail().at(-1) === 'last line', 10_000)).toBe(true);
    const tail = s.stderrTail();
    expect(tail.length).toBeLessThanOrEqual(200);
    expect(tail.join('\n').length).toBeLessThan(80 * 1024);
    expect(process.memoryUsage().heapUsed - heapBefore).toBeLessThan(64 * 1024 * 1024);
  });

  it('a notification flood is throttled: requests still answer, drops are counted, memory stays bounded', async () => {
    const { s, uri } = await open(['--flood=50000'], 30_000, { maxNotificationsPerSec: 1000 });
    const heapBefore = process.memoryUsage().heapUsed;
    const res = (await s.requestRaw('fault/flood', {})) as { sent: number };
    expect(res.sent).toBe(50_000);
    const symbols = (await s.request(DocumentSymbolRequest.type, { textDocument: { uri } })) as DocumentSymbol[];
    expect(symbols[0]!.name).toBe('FaultSymbol');
    expect(s.protocolStats.droppedNotifications).toBeGreaterThan(40_000);
    expect(process.memoryUsage().heapUsed - heapBefore).toBeLessThan(100 * 1024 * 1024);
    expect(s.generation).toBe(1);
  });
});
