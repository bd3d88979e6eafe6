/**
 * Syntax-tier entries and the change feed (src/catalog/catalog-files.ts): a syntax entry enters the
 * catalog and is fed like any entry; a server entry that takes its place with the same bytes is fed
 * as `changed` + `entryOnly` (the bytes' listeners skip it, the entries' listeners act), unless the
 * same batch also changed the bytes; a syntax entry never displaces the server's entry of the same
 * bytes; a missing server leaves the syntax entry answering, not a failure.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { CatalogFiles } from '../../src/catalog/catalog-files.js';
import { ChangeFeed } from '../../src/catalog/change-feed.js';
import { FileGate } from '../../src/catalog/file-gate.js';
import { SymbolIndex } from '../../src/catalog/symbol-index.js';
import { SyntaxTier } from '../../src/catalog/syntax-tier.js';
import type { CatalogChange, FileCataloger, FileContent, FileEntry } from '../../src/core/catalog.js';
import { LspgateError } from '../../src/errors/errors.js';
import { sha256 } from '../../src/util/hash.js';
import { createLogger } from '../../src/util/logger.js';

let tmp: string;

beforeAll(() => {
  tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'lspgate-tiers-unit-')));
  fs.mkdirSync(path.join(tmp, 'src'));
  fs.writeFileSync(path.join(tmp, 'src/a.ts'), 'export const a = 1;\n');
  fs.writeFileSync(path.join(tmp, 'src/b.rs'), 'pub fn b() {}\n');
});

afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

function entryOf(bytes: Buffer, tier?: 'syntax'): FileEntry {
  return {
    hash: sha256(bytes),
    size: bytes.length,
    mtimeMs: 1,
    language: 'typescript',
    server: tier ? 'tree-sitter' : 'a-server',
    symbols: [],
    ...(tier ? { tier } : {}),
  };
}

function setup(failWith?: LspgateError) {
  const index = new SymbolIndex();
  const feed = new ChangeFeed(createLogger('test', 'error'));
  const tier = new SyntaxTier();
  const gate = new FileGate(tmp, { extensions: new Set(['.ts', '.rs']), maxFileBytes: 1 << 20 });
  // the server cataloger's part: an entry of the bytes the gate admitted
  const cataloger: FileCataloger = {
    extensions: () => new Set(['.ts']),
    catalogFile: async (_abs: string, _rel: string, opts?: { content?: FileContent }) => {
      if (failWith) throw failWith;
      return entryOf(opts!.content!.bytes);
    },
  };
  const files = new CatalogFiles({ root: tmp, index, feed, cataloger, gate, tier, snapshot: { schedule: () => undefined } });
  files.live = true;
  const seen: CatalogChange[][] = [];
  feed.subscribe((b) => seen.push([...b.changes]));
  return { index, feed, tier, files, seen };
}

describe('syntax-tier entries on the change feed', () => {
  it('a server entry of the same bytes replacing a syntax entry is fed as entryOnly; a syntax entry never displaces it', async () => {
    const { index, feed, tier, files, seen } = setup();
    const bytes = fs.readFileSync(path.join(tmp, 'src/a.ts'));
    files.storeSyntax('src/a.ts', entryOf(bytes, 'syntax'), false);
    expect(seen).toEqual([[{ rel: 'src/a.ts', path: path.join(tmp, 'src/a.ts'), kind: 'added' }]]);
    expect(index.files.get('src/a.ts')?.tier).toBe('syntax');

    await files.catalogFile(path.join(tmp, 'src/a.ts'), 'src/a.ts');
    expect(seen[1]).toEqual([{ rel: 'src/a.ts', path: path.join(tmp, 'src/a.ts'), kind: 'changed', entryOnly: true }]);
    expect(index.files.get('src/a.ts')?.tier).toBeUndefined();
    expect(tier.status(index.files, () => true).disagreement.files_compared).toBe(1);

    // the syntax pass arriving after the server: the server's entry stays, nothing is fed
    files.storeSyntax('src/a.ts', entryOf(bytes, 'syntax'), false);
    expect(index.files.get('src/a.ts')?.tier).toBeUndefined();
    expect(seen).toHaveLength(2);

    // new bytes: syntax first, then the server, in one batch — the batch says the bytes changed
    fs.writeFileSync(path.join(tmp, 'src/a.ts'), 'export const a = 2;\n');
    await feed.batch(async () => {
      files.storeSyntax('src/a.ts', entryOf(fs.readFileSync(path.join(tmp, 'src/a.ts')), 'syntax'), false);
      await files.catalogFile(path.join(tmp, 'src/a.ts'), 'src/a.ts');
    });
    expect(seen[2]).toEqual([{ rel: 'src/a.ts', path: path.join(tmp, 'src/a.ts'), kind: 'changed' }]);
  });

  it('a missing server leaves the syntax entry answering: no failure, no change fed', async () => {
    const { index, tier, files, seen } = setup(new LspgateError('SERVER_NOT_INSTALLED', 'no server'));
    const bytes = fs.readFileSync(path.join(tmp, 'src/b.rs'));
    files.storeSyntax('src/b.rs', entryOf(bytes, 'syntax'), false);
    await expect(files.catalogFile(path.join(tmp, 'src/b.rs'), 'src/b.rs')).rejects.toThrow('no server');
    files.recordError('src/b.rs', new LspgateError('SERVER_NOT_INSTALLED', 'no server'));
    expect(index.files.get('src/b.rs')?.tier).toBe('syntax');
    expect(files.errors.size).toBe(0);
    expect(tier.syntaxOnly.get('src/b.rs')).toBe('SERVER_NOT_INSTALLED');
    expect(seen).toHaveLength(1);
    // any other failure is recorded, and the syntax entry still answers
    files.recordError('src/b.rs', new LspgateError('TIMEOUT', 'slow'));
    expect(files.errors.get('src/b.rs')?.code).toBe('TIMEOUT');
    expect(index.files.get('src/b.rs')?.tier).toBe('syntax');
  });
});
