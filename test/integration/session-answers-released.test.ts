/**
 * An answer a server gave is not kept alive by the session once its caller is done with it. Every
 * request used to be raced against one promise that settled only when the server process died, and
 * Promise.race leaves on each input a reaction holding the race's resolving functions: each answer
 * stayed reachable for the server's whole life (the DocumentSymbol trees of a catalog's every file,
 * ~4 MB of heap on a 493-file repository, growing with every call in a long-lived daemon). Checked
 * with a WeakRef after forced collections: with the leak the answer is still there.
 */
import v8 from 'node:v8';
import vm from 'node:vm';

import { afterEach, describe, expect, it } from 'vitest';
import { DocumentSymbolRequest } from 'vscode-languageserver-protocol';

import { faultEntry, faultWorkspace } from '../../fixtures/fault-server/entry.js';
import { createBroker, type SessionBroker } from '../../src/broker/broker.js';
import { createLogger } from '../../src/util/logger.js';

v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc') as () => void;

async function collected(ref: WeakRef<object>): Promise<boolean> {
  for (let i = 0; i < 10 && ref.deref() !== undefined; i++) {
    // a few turns of the event loop: promise jobs and the request's own cleanup run first
    await new Promise((r) => setImmediate(r));
    gc();
  }
  return ref.deref() === undefined;
}

describe('answers of a live server', () => {
  let broker: SessionBroker | undefined;
  let ws: ReturnType<typeof faultWorkspace> | undefined;
  afterEach(async () => {
    await broker?.stop();
    ws?.cleanup();
  });

  it('are collectable once the caller dropped them, while the server runs on', async () => {
    ws = faultWorkspace();
    broker = createBroker({ servers: [faultEntry([])], cacheDir: ws.cacheDir, logger: createLogger('test', 'error') });
    const s = await broker.sessionFor(ws.file, ws.root);
    const doc = await s.syncDocument(ws.file);
    // the answer is only ever held inside this function: its frame is gone when it returns
    const ask = async () => new WeakRef((await s.request(DocumentSymbolRequest.type, { textDocument: { uri: doc.uri } })) as object);
    const refs: WeakRef<object>[] = [];
    for (let i = 0; i < 3; i++) refs.push(await ask());
    for (const ref of refs) expect(await collected(ref)).toBe(true);
    expect(s.state).toBe('ready');
  });
});
