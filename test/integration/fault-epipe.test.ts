import fs from 'node:fs';

import { afterEach, describe, expect, it } from 'vitest';
import { DefinitionRequest, type Location } from 'vscode-languageserver-protocol';

import { faultEntry, faultWorkspace } from '../../fixtures/fault-server/entry.js';
import { waitFor } from '../../fixtures/fault-server/proc-utils.js';
import { createBroker, type SessionBroker } from '../../src/broker/broker.js';
import { createLogger } from '../../src/util/logger.js';
import { caught } from '../helpers/errors.js';

const logger = createLogger('test', 'error');

describe('a server whose stdin is gone while it still runs', () => {
  let broker: SessionBroker | undefined;
  let ws: ReturnType<typeof faultWorkspace> | undefined;
  afterEach(async () => {
    await broker?.stop();
    ws?.cleanup();
  });

  it('a write that fails (EPIPE) answers SERVER_CRASHED, counts a crash, and the next call restarts', async () => {
    ws = faultWorkspace();
    // no watchdog: the server is the only reader of its stdin, so closing it makes our writes fail;
    // requestMs far above the test timeout: only the failed write can settle the calls in time
    broker = createBroker({
      servers: [faultEntry(['--close-stdin-on=textDocument/hover'], { timeouts: { requestMs: 120_000 } })],
      cacheDir: ws.cacheDir,
      logger,
      reaper: false,
    });
    const s = await broker.sessionFor(ws.file, ws.root);
    const doc = await s.syncDocument(ws.file);
    const params = { textDocument: { uri: doc.uri }, position: { line: 0, character: 0 } };
    const hover = caught(s.requestRaw('textDocument/hover', params));
    // the server closes its stdin once it has the hover: from then on writes hit a closed pipe
    const pid = s.pid!;
    expect(await waitFor(() => !fs.existsSync(`/proc/${pid}/fd/0`), 5000)).toBe(true);
    expect((await caught(s.request(DefinitionRequest.type, params))).code).toBe('SERVER_CRASHED');
    expect((await hover).code).toBe('SERVER_CRASHED');
    expect(s.info()).toMatchObject({ state: 'crashed', crashes: 1 });

    const located = (await s.request(DefinitionRequest.type, params)) as Location[];
    expect(located[0]!.uri).toBe(doc.uri);
    expect(s.generation).toBe(2);
  });

  it('info() shows the server’s own pid, not its watchdog’s', async () => {
    ws = faultWorkspace();
    broker = createBroker({ servers: [faultEntry([])], cacheDir: ws.cacheDir, logger });
    const s = await broker.sessionFor(ws.file, ws.root);
    await s.syncDocument(ws.file);
    const stats = (await s.requestRaw('fault/stats', {})) as { pid: number };
    expect(s.info().pid).toBe(stats.pid);
    expect(broker.info()[0]!.pid).toBe(stats.pid);
  });
});
