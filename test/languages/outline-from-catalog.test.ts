/**
 * get_file_outline (details signatures and names) answers from the catalog: on a gateway whose
 * catalog was built by another one (the snapshot in the cache directory, as after a daemon
 * restart), an outline of an unchanged file starts no language server; it matches what the
 * server's file model gives (`full`), node for node, line for line; a file changed on disk is
 * re-cataloged first, so the outline follows it.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { afterAll, describe, expect, it } from 'vitest';

import { Gateway } from '../../src/gateway/gateway.js';
import { fixtureGateway, FIXTURES } from '../helpers/gateway.js';

type Node = {
  kind: string;
  name: string;
  signature?: string;
  lines?: [number, number];
  location?: { start_line: number; end_line: number };
  children?: Node[];
};
const tree = (list: Node[]): unknown[] => list.map((s) => (s.children ? [s.kind, s.name, tree(s.children)] : [s.kind, s.name]));
const flat = (list: Node[]): Node[] => list.flatMap((s) => [s, ...flat(s.children ?? [])]);

describe('get_file_outline from the catalog', async () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'lspgate-outline-'));
  fs.cpSync(path.join(FIXTURES, 'ts-app'), root, { recursive: true });
  const cacheDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lspgate-'));
  const first = await Gateway.create({ root, cacheDir });
  await (await first.openWorkspace(root)).catalog.build();
  await first.close();
  const gateway = await Gateway.create({ root, cacheDir });
  const fx = fixtureGateway(gateway, fs.realpathSync(root), cacheDir);
  afterAll(async () => {
    await gateway.close();
    fs.rmSync(cacheDir, { recursive: true, force: true });
    fs.rmSync(root, { recursive: true, force: true });
  });
  const file = 'src/services/geometry.ts';

  it('an unchanged file: no server starts, and the outline is the full one node for node', async () => {
    const r = await fx.run('get_file_outline', { file });
    const names = await fx.run('get_file_outline', { file, detail: 'names' });
    expect(gateway.context.broker.existing()).toEqual([]);
    expect(r._meta.servers).toEqual([]);
    expect(flat(r.symbols).find((n: Node) => n.name === 'circle')!.signature).toBe('function circle(r: number): Circle');
    // the server's file model, for comparison (this one starts typescript-language-server)
    const full = await fx.run('get_file_outline', { file, detail: 'full' });
    expect(gateway.context.broker.existing().length).toBe(1);
    expect(tree(r.symbols)).toEqual(tree(full.symbols));
    expect(tree(names.symbols)).toEqual(tree(full.symbols));
    expect(flat(r.symbols).map((n: Node) => n.lines)).toEqual(flat(full.symbols).map((n: Node) => [n.location!.start_line, n.location!.end_line]));
  });

  it('a file changed on disk is re-cataloged before it is outlined', async () => {
    const abs = path.join(root, file);
    fs.appendFileSync(abs, '\nexport function hexagon(side: number): number {\n  return side * 6;\n}\n');
    const r = await fx.run('get_file_outline', { file });
    expect(flat(r.symbols).find((n: Node) => n.name === 'hexagon')).toMatchObject({ kind: 'function', signature: 'function hexagon(side: number): number' });
  });
});
