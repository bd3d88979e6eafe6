/**
 * The response cache in front of typescript-language-server on a copy of fixtures/ts-app: a
 * repeated references request is answered without a server round trip, and editing ANOTHER file
 * (a new call of the function) makes the next answer come from the server, with the new reference.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Location, ReferencesRequest } from 'vscode-languageserver-protocol';

import { createBroker, type SessionBroker } from '../../src/broker/broker.js';
import { createCachedSession } from '../../src/cache/cached-session.js';
import { ResponseCache } from '../../src/cache/response-cache.js';
import { loadServers } from '../../src/config/load.js';
import type { LspSession, TraceEvent } from '../../src/lsp/types.js';
import { createLogger } from '../../src/util/logger.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const logger = createLogger('test', 'error');

function positionOf(text: string, needle: string): { line: number; character: number } {
  const idx = text.indexOf(needle);
  if (idx < 0) throw new Error(`${needle} not found`);
  const before = text.slice(0, idx).split('\n');
  return { line: before.length - 1, character: before[before.length - 1]!.length };
}

describe('response cache over typescript-language-server', () => {
  let root: string;
  let cacheDir: string;
  let broker: SessionBroker;
  let session: LspSession;
  const cache = new ResponseCache({ maxBytes: 8 << 20 });
  const sent: string[] = [];

  beforeAll(async () => {
    root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'lspgate-cache-ts-')));
    fs.cpSync(path.join(here, '../../fixtures/ts-app'), root, { recursive: true });
    cacheDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lspgate-'));
    broker = createBroker({ servers: loadServers({ workspaceRoot: root, logger }), cacheDir, logger });
    const strings = path.join(root, 'src/util/strings.ts');
    session = createCachedSession(await broker.sessionFor(strings, root), cache, { store: true });
    await session.syncDocument(strings);
    expect(await session.waitReady()).toBe('ready');
    session.onTrace((e: TraceEvent) => {
      if (e.direction === 'send' && e.kind === 'request' && e.method) sent.push(e.method);
    });
  });
  afterAll(async () => {
    session.onTrace(undefined);
    await broker.stop();
    fs.rmSync(root, { recursive: true, force: true });
    fs.rmSync(cacheDir, { recursive: true, force: true });
  });

  it('answers the repeat from the cache and re-asks after another file gains a call', async () => {
    const strings = path.join(root, 'src/util/strings.ts');
    const text = fs.readFileSync(strings, 'utf8');
    const params = {
      textDocument: { uri: pathToFileURL(strings).href },
      position: positionOf(text, 'formatName('),
      context: { includeDeclaration: true },
    };
    const first = (await session.request(ReferencesRequest.type, params)) as Location[];
    expect(first).toHaveLength(7); // fixtures/ts-app/EXPECTED.md
    const refsSent = () => sent.filter((m) => m === 'textDocument/references').length;
    expect(refsSent()).toBe(1);

    const again = (await session.request(ReferencesRequest.type, params)) as Location[];
    expect(again).toEqual(first);
    expect(refsSent()).toBe(1);

    const app = path.join(root, 'src/app.ts');
    const appText = fs.readFileSync(app, 'utf8');
    await session.syncDocument(app, `${appText}\nimport { formatName } from './util/strings.js';\nexport const extra = formatName('a', 'b');\n`);
    const after = (await session.request(ReferencesRequest.type, params)) as Location[];
    // Asked the server again (the session may retry once on ContentModified right after an edit).
    expect(refsSent()).toBeGreaterThan(1);
    // The import and the call in app.ts are new.
    expect(after.filter((l) => l.uri === pathToFileURL(app).href).length).toBe(2);
    expect(after.length).toBe(9);
  });
});
