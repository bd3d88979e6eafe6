// Symbol ids in call trees and reference containers on fixtures/ts-app: call-tree nodes carry the
// catalog's symbol_id; containers come from the catalog. A referencing file the catalog does not
// hold (over maxFileBytes: no server may open it either) keeps its references, without containers.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { afterAll, describe, expect, it } from 'vitest';

import { Gateway } from '../../src/gateway/gateway.js';
import { FIXTURES, openFixture } from '../helpers/gateway.js';
import { positionOf } from '../helpers/positions.js';
import type { CallNode, JsonResult, ReferenceEntry } from '../helpers/results.js';

const fx = await openFixture('ts-app');
const REFS_WITH_CONTAINERS = [
  'src/index.ts:4:10',
  'src/index.ts:4:24',
  'src/models/user.ts:1:10',
  'src/models/user.ts:21:17 in User.constructor',
  'src/services/report.ts:2:10',
  'src/services/report.ts:15:52 in summarizeUsers',
  'src/util/strings.ts:7:17',
];
const asText = (r: JsonResult) => r.references.map((x: ReferenceEntry) => `${x.file}:${x.line}:${x.column}${x.container ? ` in ${x.container}` : ''}`);

describe('call trees carry catalog ids', () => {
  it('find_callers: the root and every caller have the id the catalog gives, usable as a target', async () => {
    const tree = await fx.run('find_callers', { symbol: 'formatName', depth: 2 });
    expect(tree.root.symbol_id).toBe('src/util/strings.ts::formatName#function');
    const nodes: CallNode[] = [];
    const walk = (list: CallNode[] | undefined) => list?.forEach((n) => (nodes.push(n), walk(n.children)));
    walk(tree.root.calls);
    expect(nodes.length).toBeGreaterThan(1);
    for (const n of nodes) {
      const src = await fx.run('get_symbol', { symbol_id: n.symbol_id });
      expect([src.symbol.file, src.symbol.selection_line]).toEqual([n.file, n.line]);
    }
    expect(nodes.map((n) => n.symbol_id)).toContain('src/services/report.ts::summarizeUsers#function');
  });
});

describe('reference containers', () => {
  it('come from the catalog (formatName, EXPECTED.md)', async () => {
    expect(asText(await fx.run('find_references', { symbol: 'formatName' }))).toEqual(REFS_WITH_CONTAINERS);
  });

  it('are left out, with a warning, in files over maxFileBytes; the references are kept', async () => {
    const root = fs.realpathSync(path.join(FIXTURES, 'ts-app'));
    const cacheDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lspgate-'));
    // strings.ts (the target) is under 1000 bytes, models/user.ts is over.
    expect([fs.statSync(path.join(root, 'src/util/strings.ts')).size < 1000, fs.statSync(path.join(root, 'src/models/user.ts')).size > 1000]).toEqual([
      true,
      true,
    ]);
    const gateway = await Gateway.create({ root, cacheDir, limits: { maxFileBytes: 1000 } });
    afterAll(async () => {
      await gateway.close();
      fs.rmSync(cacheDir, { recursive: true, force: true });
    });
    const at = positionOf(root, 'src/util/strings.ts', 'formatName(first');
    const r = (await gateway.run('find_references', { file: 'src/util/strings.ts', line: at.line, column: at.column, output_format: 'json' })).result;
    expect(asText(r)).toEqual(REFS_WITH_CONTAINERS.map((x) => x.replace(' in User.constructor', '')));
    expect(r._meta.warnings).toContain('src/models/user.ts is not cataloged (LIMIT_EXCEEDED): no symbol ids or containers there');

    // A definition in such a file is kept, without kind or id.
    const use = positionOf(root, 'src/services/report.ts', 'user.nickname', { offset: 'user.'.length });
    const d = (await gateway.run('find_definition', { file: 'src/services/report.ts', line: use.line, column: use.column, output_format: 'json' })).result;
    expect((d.definitions as Record<string, unknown>[]).map((x) => [x.file, x.name, x.kind, x.symbol_id])).toEqual([
      ['src/models/user.ts', 'nickname', 'unknown', undefined],
    ]);
    expect(d._meta.warnings).toContain('src/models/user.ts not opened (LIMIT_EXCEEDED): its definition has no kind or symbol_id');
  });
});
