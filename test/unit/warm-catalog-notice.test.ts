// A warm start answers from the stored catalog while its walk runs: the answer is `indexing`, and
// says why in words an agent reads (when the catalog was stored, what may not show yet, what waits)
// rather than a bare "may be incomplete". A cold build's `indexing` has no stored catalog to name.
import { describe, expect, it } from 'vitest';

import type { Catalog, CatalogStatus } from '../../src/core/catalog.js';
import { MetaCollector } from '../../src/operations/meta-collector.js';
import { reportCatalog } from '../../src/service/workspace/repository.js';

function catalog(state: CatalogStatus['state'], stored: boolean): Catalog {
  const status: CatalogStatus = { state, files: 3, symbols: 9, indexed_at: '2026-12-01T10:00:00.000Z', index_version: 1, errors: [] };
  return { limitsHit: [], status: () => status, hasStored: () => stored } as unknown as Catalog;
}

describe('reportCatalog on a warm start', () => {
  it('names the stored catalog and the running walk', () => {
    const meta = new MetaCollector();
    reportCatalog(catalog('building', true), meta);
    expect(meta.indexState).toBe('indexing');
    expect(meta.warnings).toEqual([
      'answered from the catalog stored at 2026-12-01T10:00:00.000Z while the walk now running compares it with the disk: ' +
        'a file added, removed or changed since then may not show yet (refresh waits for the walk)',
    ]);
  });

  it('says nothing of a stored catalog on a cold build, nor once the walk is done', () => {
    const cold = new MetaCollector();
    reportCatalog(catalog('building', false), cold);
    expect([cold.indexState, cold.warnings]).toEqual(['indexing', []]);
    const done = new MetaCollector();
    reportCatalog(catalog('ready', false), done);
    expect([done.indexState, done.warnings]).toEqual(['ready', []]);
  });
});
