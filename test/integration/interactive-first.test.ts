/**
 * Interactive operations go ahead of background work. The fault server (a real
 * process) holds every documentSymbol of the `bulk-*` files until told (`--hold-symbols`), so a
 * running catalog build fills the server with requests that do not come back. An interactive
 * find_definition issued then (on z.fault, which the walk puts behind the bulk files) must be answered
 * while the bulk is still held — before any bulk answer — and the catalog must still complete once the server lets its answers go. With one
 * FIFO queue the held catalog requests took every request slot and find_definition waited behind
 * them (it timed out here). The same holds for the import graph (a definition request per import of
 * every file): the server holds the graph's definitions of `bulk-*` files (`--hold-definitions`), and a
 * find_definition on z.ts must be answered meanwhile; built as interactive work, the graph's requests
 * took both request slots and find_definition waited for the release (it timed out).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { afterEach, describe, expect, it } from 'vitest';

import { faultEntry } from '../../fixtures/fault-server/entry.js';
import { Gateway } from '../../src/gateway/gateway.js';
import type { LspSession } from '../../src/lsp/types.js';

async function until(check: () => Promise<boolean>, what: string): Promise<void> {
  for (let i = 0; !(await check()); i++) {
    if (i > 1500) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

type Stats = { held: number; answered: string[]; maxOpen: number };
const BULK = 12;

describe('interactive first', () => {
  const tmp: string[] = [];
  let gateway: Gateway | undefined;
  afterEach(async () => {
    await gateway?.close();
    gateway = undefined;
    for (const d of tmp.splice(0)) fs.rmSync(d, { recursive: true, force: true });
  });

  it('an interactive request overtakes a running bulk catalog', async () => {
    const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'lspgate-first-')));
    const cacheDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lspgate-cache-'));
    tmp.push(root, cacheDir);
    fs.writeFileSync(path.join(root, 'z.fault'), 'FaultSymbol here\n');
    for (let i = 0; i < BULK; i++) fs.writeFileSync(path.join(root, `bulk-${String(i).padStart(2, '0')}.fault`), `bulk ${i}\n`);
    const serversFile = path.join(cacheDir, 'servers.json');
    fs.writeFileSync(serversFile, JSON.stringify({ servers: [faultEntry(['--hold-symbols=bulk'], { timeouts: { requestMs: 60_000 } })] }));
    gateway = await Gateway.create({ root, cacheDir, serversFiles: [serversFile], limits: { perServerConcurrency: 3 } });
    const session = (): LspSession => gateway!.context.broker.existing()[0]!;
    const stats = async () => (await session().requestRaw('fault/stats', {})) as Stats;

    const catalog = gateway.run('index_folder', { path: root, output_format: 'json' });
    // the catalog is running: the server sits on its bulk requests (these polls are interactive
    // requests themselves, so while they go on the catalog has one request in flight, not two)
    await until(async () => gateway!.context.broker.existing().length > 0 && (await stats()).held >= 1, 'held bulk documentSymbol requests');
    const def = await gateway.run('find_definition', { file: 'z.fault', line: 1, column: 2, output_format: 'json' });
    expect(JSON.stringify(def.result)).toContain('z.fault');
    const during = await stats();
    expect(during.held).toBeGreaterThanOrEqual(1);
    expect(during.answered).toContain('textDocument/definition z.fault');
    expect(during.answered.filter((a) => a.includes('bulk-'))).toEqual([]);

    await session().requestRaw('fault/release', {});
    const done = await catalog;
    expect(done.result).toMatchObject({ state: 'ready', files: BULK + 1, errors: [] });
    const after = (await stats()).answered;
    const firstBulk = after.findIndex((a) => a.includes('bulk-'));
    expect(after.indexOf('textDocument/definition z.fault')).toBeLessThan(firstBulk);
    expect(new Set(after.filter((a) => a.startsWith('textDocument/documentSymbol bulk-'))).size).toBe(BULK);
  });

  it('an interactive request overtakes a running import-graph build', async () => {
    const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'lspgate-first-graph-')));
    const cacheDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lspgate-cache-'));
    tmp.push(root, cacheDir);
    fs.writeFileSync(path.join(root, 'z.ts'), 'export const FaultSymbol = 1;\n');
    const bulk = Array.from({ length: 6 }, (_, i) => `bulk-${i}.ts`);
    for (const f of bulk) fs.writeFileSync(path.join(root, f), "import { FaultSymbol } from './z';\nexport const v = FaultSymbol;\n");
    const serversFile = path.join(cacheDir, 'servers.json');
    const entry = faultEntry(['--hold-definitions=bulk'], { languages: ['typescript'], extensions: ['.ts'], timeouts: { requestMs: 60_000 } });
    // the fault server stands in for the shipped TypeScript server on these .ts files
    fs.writeFileSync(serversFile, JSON.stringify({ servers: [entry, { id: 'typescript-language-server', enabled: false }] }));
    // two slots: as interactive work the graph's two files at once would take both
    gateway = await Gateway.create({ root, cacheDir, serversFiles: [serversFile], limits: { perServerConcurrency: 2 } });
    const session = (): LspSession => gateway!.context.broker.existing()[0]!;
    const stats = async () => (await session().requestRaw('fault/stats', {})) as Stats;
    expect((await gateway.run('index_folder', { path: root, output_format: 'json' })).result).toMatchObject({ state: 'ready', files: bulk.length + 1 });
    // .ts files are cataloged from their parse trees: the server starts at the first question that needs it
    await gateway.context.broker.sessionFor(path.join(root, 'z.ts'), root);

    const graph = gateway.run('query_relationships', { query_type: 'imports-me', target: 'z.ts', max_depth: 1, output_format: 'json' });
    await until(async () => (await stats()).held >= 1, 'held import-graph definition requests');
    const def = await gateway.run('find_definition', { file: 'z.ts', line: 1, column: 14, output_format: 'json' });
    expect(JSON.stringify(def.result)).toContain('z.ts');
    const during = await stats();
    expect(during.held).toBeGreaterThanOrEqual(1);
    expect(during.answered.filter((a) => a.startsWith('textDocument/definition bulk-'))).toEqual([]);

    await session().requestRaw('fault/release', {});
    // (the fault server's definitions point into the asking file, so nothing imports z.ts here)
    expect((await graph).result).toMatchObject({ success: true, query_type: 'imports-me' });
    const after = (await stats()).answered;
    expect(new Set(after.filter((a) => a.startsWith('textDocument/definition bulk-'))).size).toBe(bulk.length);
    expect(after.indexOf('textDocument/definition z.ts')).toBeLessThan(after.findIndex((a) => a.startsWith('textDocument/definition bulk-')));
    // the graph's requests were background: whatever they waited, the server was never counted as hung
    expect(gateway.context.broker.info()[0]!.generation).toBe(1);
  });

  it('while an interactive request is in flight the catalog opens one file at a time', async () => {
    const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'lspgate-first-open-')));
    const cacheDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lspgate-cache-'));
    tmp.push(root, cacheDir);
    fs.writeFileSync(path.join(root, 'z.fault'), 'FaultSymbol here\n');
    for (let i = 0; i < BULK; i++) fs.writeFileSync(path.join(root, `bulk-${String(i).padStart(2, '0')}.fault`), `bulk ${i}\n`);
    const serversFile = path.join(cacheDir, 'servers.json');
    // the interactive find_definition on z.fault stays in flight until released
    fs.writeFileSync(serversFile, JSON.stringify({ servers: [faultEntry(['--hold-definitions=z.fault'], { timeouts: { requestMs: 60_000 } })] }));
    gateway = await Gateway.create({ root, cacheDir, serversFiles: [serversFile], limits: { perServerConcurrency: 4 } });
    const session = (): LspSession => gateway!.context.broker.existing()[0]!;
    const stats = async () => (await session().requestRaw('fault/stats', {})) as Stats;
    const def = gateway.run('find_definition', { file: 'z.fault', line: 1, column: 2, output_format: 'json' });
    await until(async () => gateway!.context.broker.existing().length > 0 && (await stats()).held === 1, 'the held find_definition');
    // the whole catalog runs beside it: its files are opened (didOpen: costly for some servers, e.g.
    // tsserver's partial-semantic server rebuilds a project on each) one at a time, not 4 at once
    expect((await gateway.run('index_folder', { path: root, output_format: 'json' })).result).toMatchObject({ state: 'ready', files: BULK + 1 });
    const s = await stats();
    expect(s.answered.filter((a) => a.startsWith('textDocument/documentSymbol bulk-'))).toHaveLength(BULK);
    expect(s.maxOpen).toBe(2); // z.fault and one catalog file; 5 without background units
    await session().requestRaw('fault/release', {});
    expect(JSON.stringify((await def).result)).toContain('z.fault');
  });

  it("a server entry's catalogConcurrency caps the catalog's files in flight at that server", async () => {
    const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'lspgate-first-cap-')));
    const cacheDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lspgate-cache-'));
    tmp.push(root, cacheDir);
    for (let i = 0; i < BULK; i++) fs.writeFileSync(path.join(root, `bulk-${String(i).padStart(2, '0')}.fault`), `bulk ${i}\n`);
    const serversFile = path.join(cacheDir, 'servers.json');
    fs.writeFileSync(serversFile, JSON.stringify({ servers: [faultEntry([], { catalogConcurrency: 1 })] }));
    gateway = await Gateway.create({ root, cacheDir, serversFiles: [serversFile], limits: { perServerConcurrency: 4 } });
    expect((await gateway.run('index_folder', { path: root, output_format: 'json' })).result).toMatchObject({ state: 'ready', files: BULK });
    const s = (await gateway.context.broker.existing()[0]!.requestRaw('fault/stats', {})) as Stats;
    // one file open at a time; 4 at once (perServerConcurrency) without the entry's cap
    expect(s.maxOpen).toBe(1);
  });
});
