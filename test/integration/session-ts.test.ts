import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DocumentSymbol, DocumentSymbolRequest } from 'vscode-languageserver-protocol';

import { alive, descendants, processGroup, waitFor } from '../../fixtures/fault-server/proc-utils.js';
import { createBroker, type SessionBroker } from '../../src/broker/broker.js';
import { loadServers } from '../../src/config/load.js';
import { createLogger } from '../../src/util/logger.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = fs.realpathSync(path.join(here, '../fixtures-local/tiny-ts'));
const shapes = path.join(root, 'src/shapes.ts');
const cacheDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lspgate-'));
const logger = createLogger('test', 'error');

describe('typescript-language-server session through the broker', () => {
  let broker: SessionBroker;
  beforeAll(() => {
    const servers = loadServers({ workspaceRoot: root, logger });
    broker = createBroker({ servers, cacheDir, logger });
  });
  afterAll(async () => {
    await broker.stop();
    fs.rmSync(cacheDir, { recursive: true, force: true });
  });

  it('starts, becomes ready and answers documentSymbol', async () => {
    const session = await broker.sessionFor(shapes, root);
    expect(session.serverId).toBe('typescript-language-server');
    expect(session.root).toBe(root);
    await session.syncDocument(shapes);
    expect(await session.waitReady()).toBe('ready');
    expect(session.state).toBe('ready');
    const symbols = (await session.request(DocumentSymbolRequest.type, { textDocument: { uri: session.getDocument(shapes)!.uri } })) as DocumentSymbol[];
    const names = symbols.map((s) => s.name);
    expect([...names].sort()).toEqual(['Circle', 'Shape', 'totalArea']);
    const circle = symbols.find((s) => s.name === 'Circle')!;
    expect(circle.children?.map((c) => c.name)).toEqual(expect.arrayContaining(['constructor', 'radius', 'area']));
    expect(session.hasCapability('documentSymbolProvider')).toBe(true);
    expect(session.positionEncoding).toBe('utf-16');
  });

  it('concurrent sessionFor calls share one process', async () => {
    const main = path.join(root, 'src/main.ts');
    const sessions = await Promise.all([broker.sessionFor(main, root), broker.sessionFor(shapes, root), broker.session('typescript-language-server', root)]);
    expect(new Set(sessions).size).toBe(1);
    expect(broker.existing()).toHaveLength(1);
  });

  it('re-syncs changed content with a new version', async () => {
    const session = await broker.sessionFor(shapes, root);
    const before = session.getDocument(shapes)!;
    const text = before.text + '\nexport const extra = 1;\n';
    const after = await session.syncDocument(shapes, text);
    expect(after.version).toBe(before.version + 1);
    const symbols = (await session.request(DocumentSymbolRequest.type, { textDocument: { uri: after.uri } })) as DocumentSymbol[];
    expect(symbols.map((s) => s.name)).toContain('extra');
    const same = await session.syncDocument(shapes, text);
    expect(same.version).toBe(after.version);
  });

  it('stop leaves no process behind', async () => {
    const session = await broker.sessionFor(shapes, root);
    const group = processGroup(session.pid!);
    const tree = [group, ...descendants(group)];
    // the reaper, typescript-language-server, and its tsserver processes
    expect(tree.length).toBeGreaterThanOrEqual(3);
    await broker.stop();
    expect(session.state).toBe('stopped');
    expect(await waitFor(() => tree.every((p) => !alive(p)), 5000)).toBe(true);
  });
});
